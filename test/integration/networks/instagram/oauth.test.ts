import { afterEach, describe, expect, it } from 'vitest';
import { graphError } from '../../../../infra/fake-networks/instagram/index.js';
import { INSTAGRAM_SCOPES } from '../../../../shared/networks/instagram/oauth.js';
import {
  GrantRefusedError,
  OAuthUnavailableError,
  type TokenSet,
} from '../../../../shared/ports/network-oauth.js';
import { consentAt } from '../../../e2e/support/consent.js';
import { CALLBACK, type InstagramWorld, startWorld, USER, userToken } from './instagram-world.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Follows the consent page as a browser would: the form posted back with Allow (or Cancel). */
async function consent(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<URL> {
  return new URL(await consentAt(authorizeUrl, decision));
}

function authorize(world: InstagramWorld, state = 'state-1'): string {
  return world.network.oauth.authorizationUrl({
    clientId: world.fake.clientId,
    state,
    redirectUri: CALLBACK,
  });
}

describe('Instagram OAuth (Instagram Login) against the fake', () => {
  let world: InstagramWorld;
  afterEach(() => world.stop());
  const signal = () => AbortSignal.timeout(5000);

  it('sends the member to INSTAGRAM_AUTHORIZE_URL with the four business scopes (insights for metrics, comments for first comments), comma-separated, and no PKCE', async () => {
    world = await startWorld();
    const url = new URL(authorize(world, 'st'));
    expect(`${url.origin}${url.pathname}`).toBe(world.fake.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: world.fake.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope:
        'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights,instagram_business_manage_comments',
      state: 'st',
    });
    expect(world.network.oauth.usesPkce).toBe(false);
  });

  it('leaves instagram_business_manage_comments (first comments only) out for an app not approved for it', async () => {
    world = await startWorld();
    const url = new URL(
      world.network.oauth.authorizationUrl({
        clientId: world.fake.clientId,
        state: 'st',
        redirectUri: CALLBACK,
        askCommentScopes: false,
      }),
    );
    expect(url.searchParams.get('scope')).toBe(
      'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights',
    );
  });

  it('turns the code into a short-lived token and at once into a 60-day one, and reads the professional account', async () => {
    world = await startWorld();
    const back = await consent(authorize(world), 'approve');
    expect(back.searchParams.get('state')).toBe('state-1');
    const before = Date.now();

    const tokens = await world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );

    const issued = world.fake.control.tokens();
    expect(issued.map((token) => token.kind)).toEqual(['short', 'long']);
    expect(tokens.accessToken).toBe(issued[1]?.token);
    // Instagram refreshes with the long-lived token itself: it is the refresh token too.
    expect(tokens.refreshToken).toBe(tokens.accessToken);
    const expiresAt = Date.parse(tokens.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 60 * DAY_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 60 * DAY_MS);
    expect(tokens.refreshExpiresAt).toBe(tokens.expiresAt);
    expect(tokens.scopes).toEqual([...INSTAGRAM_SCOPES]);
    // The secret went in the long-lived exchange, never on the code's redirect.
    expect(world.fake.control.requests().map((r) => r.endpoint)).toEqual([
      'authorize',
      'authorize',
      'oauth.access_token',
      'access_token',
    ]);

    const profile = await world.network.oauth.readProfile(tokens.accessToken, signal());
    expect(profile).toEqual({
      networkUserId: USER.userId,
      handle: `@${USER.username}`,
      displayName: USER.name,
      avatarUrl: USER.profilePictureUrl,
    });
  });

  it('comes back with access_denied when the member cancels', async () => {
    world = await startWorld();
    const back = await consent(authorize(world), 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses a used code for good (GrantRefusedError)', async () => {
    world = await startWorld();
    const code = (await consent(authorize(world), 'approve')).searchParams.get('code') ?? '';
    await world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal());
    await expect(
      world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal()),
    ).rejects.toBeInstanceOf(GrantRefusedError);
  });

  it('a server error at the code exchange is OAuthUnavailableError (try again), not a refusal', async () => {
    world = await startWorld();
    const code = (await consent(authorize(world), 'approve')).searchParams.get('code') ?? '';
    world.fake.control.failNext('oauth.access_token', {
      kind: 'reply',
      reply: graphError(2, 'Service temporarily unavailable', { status: 503 }),
    });
    await expect(
      world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal()),
    ).rejects.toBeInstanceOf(OAuthUnavailableError);
  });

  const held = (world: InstagramWorld, token: string): TokenSet => {
    const issued = world.fake.control.tokens().find((t) => t.token === token);
    const expiresAt = new Date(issued?.expiresAt ?? 0).toISOString();
    return {
      accessToken: token,
      refreshToken: token,
      expiresAt,
      refreshExpiresAt: expiresAt,
      scopes: [...INSTAGRAM_SCOPES],
    };
  };

  it('does not call refresh_access_token for a token younger than 24 hours: the tokens come back as they are', async () => {
    world = await startWorld();
    const tokens = held(world, userToken(world, { ageMs: 23 * 60 * 60 * 1000 }));

    const renewed = await world.network.oauth.refresh?.(tokens, signal());

    expect(renewed).toEqual(tokens);
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'refresh_access_token')).toEqual([]);
  });

  it('refreshes a token at least 24 hours old with ig_refresh_token: a new 60-day token', async () => {
    world = await startWorld();
    const tokens = held(world, userToken(world, { ageMs: 2 * DAY_MS }));

    const renewed = await world.network.oauth.refresh?.(tokens, signal());

    expect(renewed?.accessToken).not.toBe(tokens.accessToken);
    expect(renewed?.refreshToken).toBe(renewed?.accessToken);
    expect(Date.parse(renewed?.expiresAt ?? '')).toBeGreaterThan(Date.parse(tokens.expiresAt ?? '') + DAY_MS);
    expect(renewed?.scopes).toEqual([...INSTAGRAM_SCOPES]);
    expect(world.fake.control.tokens().find((t) => t.token === renewed?.accessToken)?.kind).toBe('long');
  });

  it('an expired token cannot be refreshed (reconnect): GrantRefusedError, and nothing is sent', async () => {
    world = await startWorld();
    const token = userToken(world, { ageMs: 2 * DAY_MS });
    world.fake.control.expireToken(token);
    const tokens = { ...held(world, token) };

    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toBeInstanceOf(GrantRefusedError);
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'refresh_access_token')).toEqual([]);
  });

  it('a token Instagram refuses at refresh (190: revoked) is refused for good; a 5xx is only unavailable', async () => {
    world = await startWorld();
    const revoked = userToken(world, { ageMs: 2 * DAY_MS });
    world.fake.control.revokeToken(revoked);
    await expect(world.network.oauth.refresh?.(held(world, revoked), signal())).rejects.toMatchObject({
      name: 'GrantRefusedError',
      networkCode: '190',
    });

    const good = userToken(world, { ageMs: 2 * DAY_MS });
    world.fake.control.failNext('refresh_access_token', {
      kind: 'reply',
      reply: graphError(2, 'Service temporarily unavailable', { status: 500 }),
    });
    await expect(world.network.oauth.refresh?.(held(world, good), signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
  });

  it('a profile read with a refused token is OAuthUnavailableError', async () => {
    world = await startWorld();
    await expect(world.network.oauth.readProfile('not-a-token', signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
  });
});
