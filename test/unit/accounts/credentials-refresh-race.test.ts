import { describe, expect, it } from 'vitest';
import type { Platform } from '../../../shared/domain/platforms.js';
import type { Network } from '../../../shared/networks/network.js';
import type { TokenSet } from '../../../shared/ports/network-oauth.js';
import {
  makeAccountCredentials,
  REFRESH_RACE_WAITS_MS,
} from '../../../shared/services/accounts/account-credentials.js';
import { sealTokens } from '../../../shared/services/accounts/token-vault.js';
import { FakeOAuthProvider } from '../support/fake-oauth-provider.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  DELIVERY_NOW,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

const MINUTE = 60_000;
const OWNER = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, accountId: ACCOUNT_ID };

/** An account of a rotating network (X's habits) whose token expires in a minute: due for a refresh. */
async function setup() {
  const networks = new Map<Platform, Network>();
  const world = await aDeliveryWorld({ networks });
  const oauth = new FakeOAuthProvider(world.clock);
  networks.set('twitter', { platform: 'twitter', app: 'X', oauth, connector: world.network });
  const granted = oauth.grant({ expiresAt: new Date(DELIVERY_NOW + MINUTE).toISOString() });
  const account = await world.connectRealAccount(granted);
  return { world, oauth, granted, account };
}

/**
 * Two workers renew one account's tokens at once (two metrics collections of the same account due
 * together, or a collection beside a publish): the network takes the refresh token from the first
 * and refuses it to the second, while the first has yet to store the rotated pair.
 */
describe('a refresh refused because a concurrent refresh used the token first', () => {
  it('waits for the winner’s write and uses its tokens, leaving the account connected', async () => {
    // Prepare: the winner's refresh reaches the network first; its write lands while the loser
    // waits the second time.
    const { world, oauth, granted, account } = await setup();
    let renewed: TokenSet | undefined;
    oauth.beforeNextRefresh = async () => {
      renewed = await oauth.refresh(granted, new AbortController().signal);
    };
    const waits: number[] = [];
    const credentials = makeAccountCredentials({
      ...world,
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length === 2 && renewed) {
          await world.tenancy.replaceAccountTokens(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID, {
            expectedVersion: 1,
            encryptedTokens: await sealTokens(world.secrets, OWNER, renewed),
            scopes: renewed.scopes,
          });
        }
      },
    });
    const winner = () => renewed;

    // Act
    const outcome = await credentials(account, { signal: new AbortController().signal });

    // Assess
    expect(outcome).toMatchObject({ kind: 'ready', tokens: { accessToken: winner()?.accessToken } });
    expect(waits).toEqual(REFRESH_RACE_WAITS_MS.slice(0, 2));
    expect(await world.tenancy.getAccount(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID)).toMatchObject({
      status: 'connected',
      tokensVersion: 2,
    });
  });

  it('a refusal no one explains within the waits disconnects the account (refresh_refused)', async () => {
    const { world, oauth, account } = await setup();
    oauth.answerRefresh('refuse');
    const waits: number[] = [];
    const credentials = makeAccountCredentials({ ...world, sleep: async (ms) => void waits.push(ms) });

    const outcome = await credentials(account, { signal: new AbortController().signal });

    expect(outcome).toMatchObject({ kind: 'refused', reason: 'refresh_refused' });
    expect(waits).toEqual([...REFRESH_RACE_WAITS_MS]);
    expect(await world.tenancy.getAccount(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID)).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'refresh_refused',
    });
  });
});
