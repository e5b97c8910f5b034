import { describe, expect, it } from 'vitest';
import { quotaDay } from '../../../shared/domain/account-quotas.js';
import type { Platform } from '../../../shared/domain/platforms.js';
import type { Network } from '../../../shared/networks/network.js';
import type { PublishRequest } from '../../../shared/ports/connector.js';
import type { TokenSet } from '../../../shared/ports/network-oauth.js';
import {
  REFRESH_AHEAD_MS,
  REFRESH_RACE_WAITS_MS,
} from '../../../shared/services/accounts/account-credentials.js';
import { sealTokens } from '../../../shared/services/accounts/token-vault.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import { FakeOAuthProvider } from '../support/fake-oauth-provider.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  atDelivery,
  DELIVERY_NOW,
  FakeNetwork,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

const today = quotaDay(DELIVERY_NOW);
const MINUTE = 60_000;

/** A world whose account is a real twitter account, its network faked (connector and OAuth). */
async function setup(options: { expiresInMs?: number; tokens?: Partial<TokenSet> } = {}) {
  const real = new FakeNetwork();
  const networks = new Map<Platform, Network>();
  const world = await aDeliveryWorld({ networks });
  const oauth = new FakeOAuthProvider(world.clock);
  networks.set('twitter', { platform: 'twitter', app: 'X', oauth, connector: real });
  const granted = oauth.grant({
    expiresAt: new Date(DELIVERY_NOW + (options.expiresInMs ?? 60 * MINUTE)).toISOString(),
    ...options.tokens,
  });
  await world.connectRealAccount(granted);
  const deliver = () => makeDeliverPost(world)(world.message);
  const deliverWhenDue = async () => {
    const due = (await world.stored()).delivery?.nextAttemptAt;
    if (due) world.clock.set(Date.parse(due));
    return deliver();
  };
  const account = async () => world.tenancy.getAccount(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID);
  return {
    ...world,
    real,
    oauth,
    granted,
    deliver,
    deliverWhenDue,
    account,
    used: () => world.quotas.used(ACCOUNT_ID, today),
  };
}

const tokenOf = (request: PublishRequest | undefined) => request?.credentials?.accessToken;
const refused = {
  kind: 'fail',
  outcome: {
    kind: 'failed',
    failure: 'auth_rejected',
    code: 'TOKEN_REJECTED',
    message: 'The network refused the access token.',
    platformRawCode: '401',
  },
} as const;

describe('credentials at delivery', () => {
  it('publishes with the stored access token while it is good for more than five minutes', async () => {
    const world = await setup({ expiresInMs: REFRESH_AHEAD_MS + 1000 });
    world.seedPost();
    expect(await world.deliver()).toBe('published');
    expect(tokenOf(world.real.requests[0])).toBe(world.granted.accessToken);
    expect(world.oauth.refreshCalls).toHaveLength(0);
    expect(world.network.requests).toHaveLength(0);
  });

  it('refreshes a token expiring within five minutes and stores the rotated pair before using it', async () => {
    // Prepare: when the network is called, look at what the account holds.
    const world = await setup({ expiresInMs: REFRESH_AHEAD_MS });
    world.seedPost();
    const heldAtPublish: TokenSet[] = [];
    const publish = world.real.publish.bind(world.real);
    world.real.publish = async (request) => {
      heldAtPublish.push(await world.storedTokens());
      return publish(request);
    };

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('published');
    expect(world.oauth.refreshCalls.map((tokens) => tokens.refreshToken)).toEqual([
      world.granted.refreshToken,
    ]);
    const [stored] = heldAtPublish;
    expect(stored?.refreshToken).not.toBe(world.granted.refreshToken);
    expect(tokenOf(world.real.requests[0])).toBe(stored?.accessToken);
    expect(await world.account()).toMatchObject({
      status: 'connected',
      tokensVersion: 2,
      tokenExpiresAt: new Date(DELIVERY_NOW + world.oauth.lifetimeMs).toISOString(),
    });
  });

  it('keeps the refresh token when the network answers without a new one', async () => {
    const world = await setup({ expiresInMs: MINUTE });
    world.oauth.rotates = false;
    world.seedPost();
    await world.deliver();
    const stored = await world.storedTokens();
    expect(stored.refreshToken).toBe(world.granted.refreshToken);
    expect(stored.accessToken).not.toBe(world.granted.accessToken);
  });

  it('a refused refresh disconnects the account and fails the post account_disconnected, without calling the network', async () => {
    const world = await setup({ expiresInMs: MINUTE });
    world.oauth.answerRefresh('refuse');
    world.seedPost();

    expect(await world.deliver()).toBe('failed');

    expect((await world.stored()).error).toEqual({
      origin: 'service',
      code: 'account_disconnected',
      message:
        "The network refused to renew the account's authorisation; reconnect the account and post again.",
      platformRawCode: 'invalid_grant',
      retryable: false,
    });
    // Disconnected once the waits for a concurrent refresh's write (on the world's clock) found none.
    const waited = REFRESH_RACE_WAITS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(await world.account()).toMatchObject({
      status: 'disconnected',
      disconnectedAt: atDelivery(waited),
      disconnectReason: 'refresh_refused',
    });
    expect(world.real.requests).toHaveLength(0);
    expect(await world.used()).toBe(0);
    expect(world.metrics.points).toContainEqual({
      name: 'TokenRefreshes',
      value: 1,
      unit: 'count',
      dimensions: { platform: 'twitter', outcome: 'refused' },
    });
  });

  it('an OAuth endpoint that does not answer is a transient failure: retried, the account untouched', async () => {
    const world = await setup({ expiresInMs: MINUTE });
    world.oauth.answerRefresh('unavailable');
    world.seedPost();

    expect(await world.deliver()).toBe('retrying');
    expect(await world.stored()).toMatchObject({
      status: 'queued',
      error: { origin: 'platform', code: 'TOKEN_REFRESH_FAILED', platformRawCode: '503', retryable: true },
    });
    expect((await world.account())?.status).toBe('connected');
    expect(world.real.requests).toHaveLength(0);

    expect(await world.deliverWhenDue()).toBe('published');
  });

  it('loses a refresh race gracefully: the refresh token the winner used is refused, and the winner’s tokens are used', async () => {
    // Prepare: another worker refreshes (rotating the refresh token) while this one is on its way.
    const world = await setup({ expiresInMs: MINUTE });
    world.seedPost();
    let winner: TokenSet | undefined;
    world.oauth.beforeNextRefresh = async () => {
      winner = await world.oauth.refresh(world.granted, new AbortController().signal);
      const owner = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, accountId: ACCOUNT_ID };
      await world.tenancy.replaceAccountTokens(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID, {
        expectedVersion: 1,
        encryptedTokens: await sealTokens(world.secrets, owner, winner),
        scopes: winner.scopes,
      });
    };

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('published');
    expect(tokenOf(world.real.requests[0])).toBe(winner?.accessToken);
    expect(await world.account()).toMatchObject({ status: 'connected', tokensVersion: 2 });
    expect((await world.storedTokens()).refreshToken).toBe(winner?.refreshToken);
  });

  it('loses a write race gracefully: tokens written meanwhile win over a refresh the network accepted', async () => {
    // Prepare: the account is reconnected (new tokens, no refresh involved) during this refresh.
    const world = await setup({ expiresInMs: MINUTE });
    world.seedPost();
    const reconnected = world.oauth.grant();
    world.oauth.beforeNextRefresh = async () => {
      const owner = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, accountId: ACCOUNT_ID };
      await world.tenancy.replaceAccountTokens(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID, {
        expectedVersion: 1,
        encryptedTokens: await sealTokens(world.secrets, owner, reconnected),
        scopes: reconnected.scopes,
      });
    };

    expect(await world.deliver()).toBe('published');

    expect(world.oauth.refreshCalls).toHaveLength(1);
    expect(tokenOf(world.real.requests[0])).toBe(reconnected.accessToken);
    expect((await world.storedTokens()).accessToken).toBe(reconnected.accessToken);
  });

  it('an expired token with no refresh token disconnects the account (token_expired)', async () => {
    const world = await setup({ expiresInMs: -MINUTE, tokens: { refreshToken: undefined } });
    world.seedPost();
    expect(await world.deliver()).toBe('failed');
    expect((await world.stored()).error).toMatchObject({ code: 'account_disconnected', retryable: false });
    expect(await world.account()).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'token_expired',
    });
  });

  it('a token expiring soon with no refresh token is used while it lasts', async () => {
    const world = await setup({ expiresInMs: MINUTE, tokens: { refreshToken: undefined } });
    world.seedPost();
    expect(await world.deliver()).toBe('published');
    expect(tokenOf(world.real.requests[0])).toBe(world.granted.accessToken);
  });

  it('stored tokens that do not open fail the post, not retryable, and leave the account alone', async () => {
    const world = await setup();
    const account = await world.account();
    await world.tenancy.putAccount({
      ...(account as NonNullable<typeof account>),
      encryptedTokens: 'garbage',
    });
    world.seedPost();
    expect(await world.deliver()).toBe('failed');
    expect((await world.stored()).error).toMatchObject({
      origin: 'service',
      code: 'account_credentials_unreadable',
      retryable: false,
    });
    expect((await world.account())?.status).toBe('connected');
    expect(world.real.requests).toHaveLength(0);
  });

  it('looks an unknown outcome up with the access token', async () => {
    const world = await setup();
    world.real.answer({ kind: 'unknown', posted: true });
    world.seedPost();
    expect(await world.deliver()).toBe('published');
    expect(world.real.lookups[0]?.credentials?.accessToken).toBe(world.granted.accessToken);
  });

  it('hands the media bytes reader to the connector', async () => {
    const world = await setup();
    world.seedPost();
    await world.deliver();
    expect(world.real.requests[0]?.bytes).toBe(world.bytes);
  });
});

describe('a refused access token (auth_rejected)', () => {
  it('is refreshed once and the post tried again at once, in the same attempt', async () => {
    // Prepare: the token looks good for an hour, but the network refuses it.
    const world = await setup();
    world.real.answer(refused);
    world.seedPost();

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('published');
    expect(world.oauth.refreshCalls).toHaveLength(1);
    const fresh = await world.storedTokens();
    expect(world.real.requests.map(tokenOf)).toEqual([world.granted.accessToken, fresh.accessToken]);
    expect(world.real.requests.map((request) => request.attempt)).toEqual([1, 1]);
    expect(await world.stored()).toMatchObject({ status: 'published', attempts: 1 });
  });

  it('hands the refused call’s progress to the second call', async () => {
    const world = await setup();
    const progress = { mediaIds: ['7'] };
    world.real.answer({ ...refused, outcome: { ...refused.outcome, progress } });
    world.seedPost();
    await world.deliver();
    expect(world.real.requests[1]?.progress).toEqual(progress);
  });

  it('refused again with a fresh token: the authorisation is revoked, the account disconnected', async () => {
    const world = await setup();
    world.real.answer(refused, refused);
    world.seedPost();

    expect(await world.deliver()).toBe('failed');

    expect((await world.stored()).error).toMatchObject({
      origin: 'platform',
      code: 'TOKEN_REJECTED',
      retryable: false,
    });
    expect((await world.account())?.status).toBe('disconnected');
    expect(world.real.requests).toHaveLength(2);
  });

  it('the refresh refused: account_disconnected (refresh_refused), one call only', async () => {
    const world = await setup();
    world.real.answer(refused);
    world.oauth.answerRefresh('refuse');
    world.seedPost();

    expect(await world.deliver()).toBe('failed');

    expect((await world.stored()).error).toMatchObject({
      code: 'account_disconnected',
      platformRawCode: 'invalid_grant',
    });
    expect(await world.account()).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'refresh_refused',
    });
    expect(world.real.requests).toHaveLength(1);
  });

  it('uses tokens someone else stored meanwhile instead of refreshing again', async () => {
    // Prepare: while the refused call was out, the sweep rotated the tokens.
    const world = await setup();
    world.seedPost();
    const rotated = world.oauth.grant();
    const publish = world.real.publish.bind(world.real);
    world.real.answer(refused);
    world.real.publish = async (request) => {
      if (world.real.requests.length === 0) {
        const owner = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, accountId: ACCOUNT_ID };
        await world.tenancy.replaceAccountTokens(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID, {
          expectedVersion: 1,
          encryptedTokens: await sealTokens(world.secrets, owner, rotated),
          scopes: rotated.scopes,
        });
      }
      return publish(request);
    };

    expect(await world.deliver()).toBe('published');

    expect(world.oauth.refreshCalls).toHaveLength(0);
    expect(world.real.requests.map(tokenOf)).toEqual([world.granted.accessToken, rotated.accessToken]);
  });

  it('with no way to renew the token: disconnected (token_expired)', async () => {
    const world = await setup({ tokens: { refreshToken: undefined } });
    world.real.answer(refused);
    world.seedPost();
    expect(await world.deliver()).toBe('failed');
    expect(await world.account()).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'token_expired',
    });
    expect(world.real.requests).toHaveLength(1);
  });
});
