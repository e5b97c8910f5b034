import * as oauth from 'oauth4webapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_X_USER } from '../../../../infra/fake-networks/x/index.js';
import { makeXOAuth, X_SCOPES } from '../../../../shared/networks/x/oauth.js';
import { GrantRefusedError, OAuthUnavailableError } from '../../../../shared/ports/network-oauth.js';
import { closedPortUrl, connect, consent, startXWorld, type XWorld } from './x-fixture.js';

const signal = () => AbortSignal.timeout(5000);

describe('X OAuth against the fake X', () => {
  let world: XWorld;
  beforeEach(async () => {
    world = await startXWorld();
  });
  afterEach(async () => {
    await world.fake.stop();
  });

  it('builds the authorize URL X documents: code, client, callback, the five scopes, state and an S256 challenge', () => {
    const url = new URL(
      world.oauth.authorizationUrl({
        clientId: 'client-1',
        state: 'st-1',
        redirectUri: 'https://api.example.com/v1/oauth/twitter/callback',
        codeChallenge: 'challenge-1',
      }),
    );

    expect(`${url.origin}${url.pathname}`).toBe(world.fake.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'client-1',
      redirect_uri: 'https://api.example.com/v1/oauth/twitter/callback',
      scope: 'tweet.read tweet.write users.read media.write offline.access',
      state: 'st-1',
      code_challenge: 'challenge-1',
      code_challenge_method: 'S256',
    });
    expect(world.oauth.usesPkce).toBe(true);
    expect(world.oauth.scopes).toEqual(X_SCOPES);
  });

  it('exchanges the code from the consent page for tokens that carry the granted scopes and expiry', async () => {
    const before = Date.now();

    const tokens = await connect(world);

    expect(tokens.accessToken).toMatch(/^xat_/);
    expect(tokens.refreshToken).toMatch(/^xrt_/);
    expect(tokens.scopes).toEqual([...X_SCOPES]);
    const expiresIn = Date.parse(tokens.expiresAt ?? '') - before;
    expect(expiresIn).toBeGreaterThan(7100 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(7200 * 1000 + 1000);
  });

  it('reads the profile: X user id, @handle, name and avatar', async () => {
    const tokens = await connect(world);

    const profile = await world.oauth.readProfile(tokens.accessToken, signal());

    expect(profile).toEqual({
      networkUserId: DEFAULT_FAKE_X_USER.id,
      handle: `@${DEFAULT_FAKE_X_USER.username}`,
      displayName: DEFAULT_FAKE_X_USER.name,
      avatarUrl: DEFAULT_FAKE_X_USER.profileImageUrl,
    });
  });

  it('sends the verifier: a code exchanged with another verifier is refused as a grant', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const url = world.oauth.authorizationUrl({
      clientId: world.fake.clientId,
      state: 's',
      redirectUri: world.redirectUri,
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
    });
    const code = (await consent(url)).searchParams.get('code') ?? '';

    const exchange = world.oauth.exchangeCode(
      { code, redirectUri: world.redirectUri, codeVerifier: oauth.generateRandomCodeVerifier() },
      signal(),
    );

    await expect(exchange).rejects.toBeInstanceOf(GrantRefusedError);
  });

  it('refuses a code used twice, and one exchanged after its 30 seconds', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const authorize = () =>
      world.oauth.authorizationUrl({
        clientId: world.fake.clientId,
        state: 's',
        redirectUri: world.redirectUri,
        codeChallenge: challenge,
      });
    const first = (await consent(authorize())).searchParams.get('code') ?? '';
    await world.oauth.exchangeCode(
      { code: first, redirectUri: world.redirectUri, codeVerifier: verifier },
      signal(),
    );

    await expect(
      world.oauth.exchangeCode(
        { code: first, redirectUri: world.redirectUri, codeVerifier: verifier },
        signal(),
      ),
    ).rejects.toMatchObject({ name: 'GrantRefusedError', networkCode: 'invalid_request' });

    const late = (await consent(authorize())).searchParams.get('code') ?? '';
    world.fake.control.advanceClock(31_000);
    await expect(
      world.oauth.exchangeCode(
        { code: late, redirectUri: world.redirectUri, codeVerifier: verifier },
        signal(),
      ),
    ).rejects.toBeInstanceOf(GrantRefusedError);
  });

  it('comes back with access_denied and the state when the person cancels', async () => {
    const url = world.oauth.authorizationUrl({
      clientId: world.fake.clientId,
      state: 'st-deny',
      redirectUri: world.redirectUri,
      codeChallenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    });

    const back = await consent(url, 'deny');

    expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', state: 'st-deny' });
  });

  it('rotates on refresh: the new pair works, and the old refresh token is refused as a grant', async () => {
    const tokens = await connect(world);

    const refreshed = await world.oauth.refresh?.(tokens, signal());

    expect(refreshed?.refreshToken).toMatch(/^xrt_/);
    expect(refreshed?.refreshToken).not.toBe(tokens.refreshToken);
    expect(refreshed?.accessToken).not.toBe(tokens.accessToken);
    await expect(world.oauth.readProfile(refreshed?.accessToken ?? '', signal())).resolves.toMatchObject({
      networkUserId: DEFAULT_FAKE_X_USER.id,
    });
    await expect(world.oauth.refresh?.(tokens, signal())).rejects.toMatchObject({
      name: 'GrantRefusedError',
      networkCode: 'invalid_request',
    });
    const sent = world.fake.control.tokens().refresh.find((token) => token.token === tokens.refreshToken);
    expect(sent?.used).toBe(true);
  });

  it('refuses a refresh without a refresh token as a grant, without calling X', async () => {
    const tokens = await connect(world);
    const calls = world.fake.control.requests().length;

    await expect(
      world.oauth.refresh?.({ accessToken: tokens.accessToken, scopes: [] }, signal()),
    ).rejects.toBeInstanceOf(GrantRefusedError);
    expect(world.fake.control.requests()).toHaveLength(calls);
  });

  it('revokes the grant: the access token stops working and the refresh token is refused', async () => {
    const tokens = await connect(world);

    await world.oauth.revoke?.(tokens, signal());

    await expect(world.oauth.readProfile(tokens.accessToken, signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
    await expect(world.oauth.refresh?.(tokens, signal())).rejects.toBeInstanceOf(GrantRefusedError);
    expect(world.fake.control.tokens().access.every((token) => token.revoked)).toBe(true);
  });

  it('says X is unavailable, not that the grant is dead, for a 5xx, a refused client or missing app credentials', async () => {
    const tokens = await connect(world);
    world.fake.control.failNext('oauth.token', { status: 503, body: { title: 'Service Unavailable' } });
    await expect(world.oauth.refresh?.(tokens, signal())).rejects.toBeInstanceOf(OAuthUnavailableError);

    const wrongSecret = makeXOAuth({
      apiUrl: world.fake.apiUrl,
      authorizeUrl: world.fake.authorizeUrl,
      appCredentials: async () => ({ clientId: world.fake.clientId, clientSecret: 'not-the-secret' }),
    });
    await expect(wrongSecret.refresh?.(tokens, signal())).rejects.toMatchObject({
      name: 'OAuthUnavailableError',
      networkCode: 'unauthorized_client',
    });

    const unconfigured = makeXOAuth({
      apiUrl: world.fake.apiUrl,
      authorizeUrl: world.fake.authorizeUrl,
      appCredentials: async () => undefined,
    });
    await expect(unconfigured.refresh?.(tokens, signal())).rejects.toBeInstanceOf(OAuthUnavailableError);
    // The refresh token survived all three: nothing refused it.
    await expect(world.oauth.refresh?.(tokens, signal())).resolves.toMatchObject({
      accessToken: expect.any(String),
    });
  });

  it('says X is unavailable when it cannot be reached', async () => {
    const tokens = await connect(world);
    const nowhere = makeXOAuth({
      apiUrl: await closedPortUrl(),
      authorizeUrl: world.fake.authorizeUrl,
      appCredentials: async () => ({ clientId: world.fake.clientId, clientSecret: world.fake.clientSecret }),
    });

    await expect(nowhere.refresh?.(tokens, signal())).rejects.toMatchObject({
      name: 'OAuthUnavailableError',
      networkCode: 'ECONNREFUSED',
    });
  });
});
