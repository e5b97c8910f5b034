import { afterEach, describe, expect, it } from 'vitest';
import { graphError } from '../../../../infra/fake-networks/threads/index.js';
import { THREADS_SCOPES } from '../../../../shared/networks/threads/oauth.js';
import {
  GrantRefusedError,
  OAuthUnavailableError,
  type TokenSet,
} from '../../../../shared/ports/network-oauth.js';
import { consentAt } from '../../../e2e/support/consent.js';
import { CALLBACK, startWorld, type ThreadsWorld, USER, userToken } from './threads-world.js';

const DAY_MS = 24 * 60 * 60 * 1000;

async function authorize(world: ThreadsWorld, state = 'state-1'): Promise<string> {
  return world.network.oauth.authorizationUrl({
    clientId: world.fake.clientId,
    state,
    redirectUri: CALLBACK,
  });
}

/** Where the consent page sends the browser: our callback with `?code=…&state=…#_`. */
async function consentBack(world: ThreadsWorld, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  return new URL(await consentAt(await authorize(world), decision));
}

describe('Threads OAuth against the fake', () => {
  let world: ThreadsWorld;
  afterEach(() => world.stop());
  const signal = () => AbortSignal.timeout(5000);

  it('sends the person to THREADS_AUTHORIZE_URL with the five scopes (insights for the metrics) comma-separated, response_type=code and no PKCE', async () => {
    world = await startWorld();
    const url = new URL(await authorize(world, 'st'));
    expect(`${url.origin}${url.pathname}`).toBe(world.fake.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: world.fake.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope:
        'threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_manage_insights',
      state: 'st',
    });
    expect(world.network.oauth.usesPkce).toBe(false);
  });

  it('turns the code (sent with its #_) into a short-lived token and at once into a 60-day one, and reads the profile', async () => {
    world = await startWorld();
    const back = await consentBack(world);
    expect(back.hash).toBe('#_');
    expect(back.searchParams.get('state')).toBe('state-1');
    const before = Date.now();

    const tokens = await world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );

    const issued = world.fake.control.tokens();
    expect(issued.map((token) => token.kind)).toEqual(['short', 'long']);
    expect(tokens.accessToken).toBe(issued[1]?.token);
    // Threads refreshes with the long-lived token itself: it is the refresh token too.
    expect(tokens.refreshToken).toBe(tokens.accessToken);
    const expiresAt = Date.parse(tokens.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 60 * DAY_MS - 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 60 * DAY_MS);
    expect(tokens.refreshExpiresAt).toBe(tokens.expiresAt);
    expect(tokens.scopes).toEqual([...THREADS_SCOPES]);
    expect(world.fake.control.requests().map((r) => r.endpoint)).toEqual([
      'authorize',
      'authorize',
      'oauth.access_token',
      'access_token',
    ]);
    // The secret goes in the code exchange's form and the long-lived exchange, never in a URL we log.
    expect(world.fake.control.requests().find((r) => r.endpoint === 'access_token')?.params).toMatchObject({
      grant_type: 'th_exchange_token',
    });

    expect(await world.network.oauth.readProfile(tokens.accessToken, signal())).toEqual({
      networkUserId: USER.userId,
      handle: `@${USER.username}`,
      displayName: USER.name,
      avatarUrl: USER.profilePictureUrl,
    });
  });

  it('comes back with access_denied when the person cancels', async () => {
    world = await startWorld();
    const back = await consentBack(world, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses a used code for good (GrantRefusedError); a 5xx at the exchange is only unavailable', async () => {
    world = await startWorld();
    const code = (await consentBack(world)).searchParams.get('code') ?? '';
    await world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal());
    await expect(
      world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal()),
    ).rejects.toBeInstanceOf(GrantRefusedError);

    const other = (await consentBack(world)).searchParams.get('code') ?? '';
    world.fake.control.failNext('oauth.access_token', {
      kind: 'reply',
      reply: graphError(2, 'Service temporarily unavailable', { status: 503 }),
    });
    await expect(
      world.network.oauth.exchangeCode({ code: other, redirectUri: CALLBACK }, signal()),
    ).rejects.toBeInstanceOf(OAuthUnavailableError);
  });

  const held = (token: string): TokenSet => {
    const issued = world.fake.control.tokens().find((t) => t.token === token);
    const expiresAt = new Date(issued?.expiresAt ?? 0).toISOString();
    return {
      accessToken: token,
      refreshToken: token,
      expiresAt,
      refreshExpiresAt: expiresAt,
      scopes: [...THREADS_SCOPES],
    };
  };

  it('does not call refresh_access_token for a token younger than 24 hours (Meta would refuse it)', async () => {
    world = await startWorld();
    const tokens = held(userToken(world, { ageMs: 23 * 60 * 60 * 1000 }));
    expect(await world.network.oauth.refresh?.(tokens, signal())).toEqual(tokens);
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'refresh_access_token')).toEqual([]);
  });

  it('refreshes a token at least 24 hours old with th_refresh_token: a new 60-day token', async () => {
    world = await startWorld();
    const tokens = held(userToken(world, { ageMs: 2 * DAY_MS }));
    const renewed = await world.network.oauth.refresh?.(tokens, signal());
    expect(renewed?.accessToken).not.toBe(tokens.accessToken);
    expect(renewed?.refreshToken).toBe(renewed?.accessToken);
    expect(Date.parse(renewed?.expiresAt ?? '')).toBeGreaterThan(Date.parse(tokens.expiresAt ?? '') + DAY_MS);
    expect(
      world.fake.control.requests().find((r) => r.endpoint === 'refresh_access_token')?.params,
    ).toMatchObject({
      grant_type: 'th_refresh_token',
    });
  });

  it('an expired token is not refreshable (reconnect); one Threads refuses (190, revoked) is refused for good; a 5xx only unavailable', async () => {
    world = await startWorld();
    const expired = userToken(world, { ageMs: 2 * DAY_MS });
    world.fake.control.expireToken(expired);
    await expect(world.network.oauth.refresh?.(held(expired), signal())).rejects.toBeInstanceOf(
      GrantRefusedError,
    );
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'refresh_access_token')).toEqual([]);

    const revoked = userToken(world, { ageMs: 2 * DAY_MS });
    world.fake.control.revokeToken(revoked);
    await expect(world.network.oauth.refresh?.(held(revoked), signal())).rejects.toMatchObject({
      name: 'GrantRefusedError',
      networkCode: '190',
    });

    const good = userToken(world, { ageMs: 2 * DAY_MS });
    world.fake.control.failNext('refresh_access_token', {
      kind: 'reply',
      reply: graphError(2, 'Service temporarily unavailable', { status: 500 }),
    });
    await expect(world.network.oauth.refresh?.(held(good), signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
  });
});
