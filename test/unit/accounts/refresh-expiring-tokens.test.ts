import { describe, expect, it } from 'vitest';
import type { Platform } from '../../../shared/domain/platforms.js';
import type { Account } from '../../../shared/domain/tenancy.js';
import type { Network } from '../../../shared/networks/network.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { TokenSet } from '../../../shared/ports/network-oauth.js';
import {
  makeRefreshExpiringTokens,
  SWEEP_HORIZON_MS,
  SWEEP_STOP_MARGIN_MS,
} from '../../../shared/services/accounts/refresh-expiring-tokens.js';
import { openTokens, sealTokens } from '../../../shared/services/accounts/token-vault.js';
import { makeMemoryLogger, makeMemoryMetrics } from '../../support/memory-observability.js';
import { anAccount } from '../support/builders.js';
import { FakeOAuthProvider } from '../support/fake-oauth-provider.js';
import { FakeNetwork } from '../support/in-memory-delivery-ports.js';
import { InMemorySecretCipher } from '../support/in-memory-secret-cipher.js';
import { InMemoryTenancyStore } from '../support/in-memory-tenancy-store.js';

const NOW = Date.parse('2030-01-01T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

function setup() {
  const clock = fixedClock(NOW);
  const tenancy = new InMemoryTenancyStore();
  const secrets = new InMemorySecretCipher();
  const oauth = new FakeOAuthProvider(clock);
  oauth.lifetimeMs = 60 * DAY;
  // LinkedIn's Community Management app: its own client, which alone can renew its grants.
  const community = new FakeOAuthProvider(clock);
  community.lifetimeMs = 60 * DAY;
  const networks = new Map<Platform, Network>([
    [
      'linkedin',
      {
        platform: 'linkedin',
        app: 'LINKEDIN',
        oauth,
        otherApps: [{ app: 'LINKEDIN_COMMUNITY', oauth: community }],
        connector: new FakeNetwork(),
      },
    ],
  ]);
  const logger = makeMemoryLogger();
  const sweep = makeRefreshExpiringTokens({
    tenancy,
    secrets,
    networks,
    clock,
    logger,
    metrics: makeMemoryMetrics(),
  });
  let n = 0;
  /** A connected LinkedIn account whose token expires `inMs` from now. */
  const anAccountExpiringIn = async (
    inMs: number,
    tokens: Partial<TokenSet> = {},
    overrides: Partial<Account> = {},
    grantedBy: FakeOAuthProvider = oauth,
  ) => {
    n += 1;
    const owner = {
      tenantId: `ten_01JD00000000000000000000${String(n).padStart(2, '0')}`,
      workspaceId: 'wks_01JD0000000000000000000000',
      accountId: `acc_01JD00000000000000000000${String(n).padStart(2, '0')}`,
    };
    const granted = grantedBy.grant({ expiresAt: new Date(NOW + inMs).toISOString(), ...tokens });
    const account = anAccount({
      ...owner,
      platform: 'linkedin',
      sandbox: false,
      networkUserId: `member-${n}`,
      tokenExpiresAt: granted.expiresAt,
      encryptedTokens: await sealTokens(secrets, owner, granted),
      tokensVersion: 1,
      scopes: granted.scopes,
      ...overrides,
    });
    await tenancy.putAccount(account);
    return { account, granted };
  };
  const current = (account: Account) =>
    tenancy.getAccount(account.tenantId, account.workspaceId, account.accountId);
  const tokensOf = async (account: Account) => {
    const stored = await current(account);
    return openTokens(secrets, account, stored?.encryptedTokens ?? '');
  };
  return { clock, tenancy, oauth, community, sweep, logger, anAccountExpiringIn, current, tokensOf };
}

describe('the daily token sweep', () => {
  it('renews the tokens that expire within a week, across tenants, and leaves the others', async () => {
    // Prepare
    const world = setup();
    const soon = await world.anAccountExpiringIn(2 * DAY);
    const expired = await world.anAccountExpiringIn(-DAY);
    const later = await world.anAccountExpiringIn(SWEEP_HORIZON_MS + DAY);

    // Act
    const report = await world.sweep();

    // Assess
    expect(report).toEqual({
      examined: 2,
      refreshed: 2,
      disconnected: 0,
      skipped: 0,
      failed: 0,
      stoppedEarly: false,
    });
    expect(world.oauth.refreshCalls.map((tokens) => tokens.refreshToken).sort()).toEqual(
      [soon.granted.refreshToken, expired.granted.refreshToken].sort(),
    );
    for (const { account, granted } of [soon, expired]) {
      expect(await world.current(account)).toMatchObject({
        status: 'connected',
        tokensVersion: 2,
        tokenExpiresAt: new Date(NOW + 60 * DAY).toISOString(),
      });
      expect((await world.tokensOf(account)).accessToken).not.toBe(granted.accessToken);
    }
    expect((await world.current(later.account))?.tokensVersion).toBe(1);
  });

  it('renews an account with the client of the app that granted it (LinkedIn’s Community Management app)', async () => {
    // Prepare
    const world = setup();
    const { account, granted } = await world.anAccountExpiringIn(
      DAY,
      {},
      { networkApp: 'LINKEDIN_COMMUNITY' },
      world.community,
    );

    // Act
    const report = await world.sweep();

    // Assess
    expect(report).toMatchObject({ examined: 1, refreshed: 1, disconnected: 0 });
    expect(world.community.refreshCalls.map((tokens) => tokens.refreshToken)).toEqual([granted.refreshToken]);
    expect(world.oauth.refreshCalls).toEqual([]);
    expect((await world.current(account))?.status).toBe('connected');
  });

  it('disconnects an account whose refresh the network refuses (account.disconnected follows)', async () => {
    const world = setup();
    const { account } = await world.anAccountExpiringIn(DAY);
    world.oauth.answerRefresh('refuse');

    const report = await world.sweep();

    expect(report).toMatchObject({ examined: 1, disconnected: 1, refreshed: 0 });
    expect(await world.current(account)).toMatchObject({
      status: 'disconnected',
      disconnectedAt: new Date(NOW).toISOString(),
      disconnectReason: 'refresh_refused',
    });
  });

  it('without a refresh token: disconnects an expired account, leaves one still working', async () => {
    const world = setup();
    const expired = await world.anAccountExpiringIn(-60_000, { refreshToken: undefined });
    const working = await world.anAccountExpiringIn(3 * DAY, { refreshToken: undefined });

    const report = await world.sweep();

    expect(report).toMatchObject({ examined: 2, disconnected: 1, skipped: 1 });
    expect(await world.current(expired.account)).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'token_expired',
    });
    expect((await world.current(working.account))?.status).toBe('connected');
    expect(world.oauth.refreshCalls).toHaveLength(0);
  });

  it('counts a network that does not answer as failed and leaves the account for the next run', async () => {
    const world = setup();
    const { account } = await world.anAccountExpiringIn(DAY);
    world.oauth.answerRefresh('unavailable');

    expect(await world.sweep()).toMatchObject({ failed: 1, refreshed: 0 });
    expect(await world.current(account)).toMatchObject({ status: 'connected', tokensVersion: 1 });
    expect(await world.sweep()).toMatchObject({ refreshed: 1 });
  });

  it('goes through every page, and renews an account the list shows again only once', async () => {
    // Prepare: more accounts than a page; short-lived tokens stay within the horizon once renewed.
    const world = setup();
    world.oauth.lifetimeMs = 2 * 60 * 60 * 1000;
    for (let i = 0; i < 55; i++) await world.anAccountExpiringIn(DAY + i * 1000);

    const report = await world.sweep();

    expect(report).toMatchObject({ examined: 55, refreshed: 55 });
    expect(world.oauth.refreshCalls).toHaveLength(55);
  });

  it('stops taking accounts when the run is about to time out', async () => {
    const world = setup();
    await world.anAccountExpiringIn(DAY);
    await world.anAccountExpiringIn(2 * DAY);
    let left = SWEEP_STOP_MARGIN_MS + 1;
    world.oauth.beforeNextRefresh = async () => {
      left = SWEEP_STOP_MARGIN_MS - 1;
    };

    const report = await world.sweep({ timeLeftMs: () => left });

    expect(report).toMatchObject({ examined: 1, refreshed: 1, stoppedEarly: true });
  });

  it('never logs a token', async () => {
    const world = setup();
    const { granted } = await world.anAccountExpiringIn(DAY);
    world.oauth.answerRefresh('refuse');
    await world.sweep();
    const logged = JSON.stringify(world.logger.entries);
    expect(logged).not.toContain(granted.accessToken);
    expect(logged).not.toContain(granted.refreshToken);
    expect(logged).toContain('refresh');
  });
});
