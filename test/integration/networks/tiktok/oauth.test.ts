import { afterEach, describe, expect, it } from 'vitest';
import { TIKTOK_SCOPES } from '../../../../shared/networks/tiktok/oauth.js';
import { GrantRefusedError, OAuthUnavailableError } from '../../../../shared/ports/network-oauth.js';
import { consentAt } from '../../../e2e/support/consent.js';
import { CALLBACK, CREATOR, startWorld, type TikTokWorld } from './tiktok-world.js';

const signal = () => AbortSignal.timeout(5_000);

describe('TikTok OAuth against the fake', () => {
  let world: TikTokWorld;
  afterEach(() => world.stop());

  const authorizeUrl = (state = 'st_123') =>
    world.network.oauth.authorizationUrl({ clientId: world.fake.clientId, state, redirectUri: CALLBACK });

  const connect = async () => {
    const back = new URL(await consentAt(authorizeUrl('st_c')));
    return world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );
  };

  it('asks with client_key (not client_id), the code flow, our callback, the state, the two scopes Direct Post needs, the inbox upload’s and the two the metrics read, without PKCE', async () => {
    world = await startWorld();
    const url = new URL(authorizeUrl());
    expect(`${url.origin}${url.pathname}`).toBe(world.fake.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_key: world.fake.clientId,
      response_type: 'code',
      scope: 'user.info.basic,video.publish,video.upload,video.list,user.info.stats',
      redirect_uri: CALLBACK,
      state: 'st_123',
    });
    expect(world.network.oauth.usesPkce).toBe(false);
    expect(world.network.oauth.scopes).toEqual(TIKTOK_SCOPES);
  });

  it('exchanges the consent’s code for a 2-hour access token and a 180-day refresh token with the granted scopes', async () => {
    world = await startWorld();
    const before = Date.now();
    const back = new URL(await consentAt(authorizeUrl('st_abc')));
    expect(back.searchParams.get('state')).toBe('st_abc');
    const tokens = await world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );
    expect(tokens.scopes).toEqual([
      'user.info.basic',
      'video.publish',
      'video.upload',
      'video.list',
      'user.info.stats',
    ]);
    expect(Date.parse(tokens.expiresAt ?? '') - before).toBeGreaterThanOrEqual(2 * 3600 * 1000 - 1000);
    expect(Date.parse(tokens.expiresAt ?? '') - before).toBeLessThan(2 * 3600 * 1000 + 5000);
    expect(Date.parse(tokens.refreshExpiresAt ?? '') - before).toBeGreaterThan(179 * 24 * 3600 * 1000);
    expect(world.fake.control.accessTokens().map((t) => t.token)).toContain(tokens.accessToken);
  });

  it('connects through an app approved for Login Kit, Direct Post, the inbox upload and the metrics scopes only (no user.info.profile), which refuses any other scope', async () => {
    const approved = ['user.info.basic', 'video.publish', 'video.upload', 'video.list', 'user.info.stats'];
    world = await startWorld({ appScopes: approved });
    const tokens = await connect();
    expect(tokens.scopes).toEqual(approved);
    const asked = new URL(authorizeUrl());
    asked.searchParams.set('scope', `${approved.join(',')},user.info.profile`);
    const refused = await fetch(asked, { redirect: 'manual' });
    await refused.body?.cancel();
    expect(new URL(refused.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_scope');
  });

  it('refuses a code used twice as a refused grant', async () => {
    world = await startWorld();
    const back = new URL(await consentAt(authorizeUrl()));
    const exchange = { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK };
    await world.network.oauth.exchangeCode(exchange, signal());
    await expect(world.network.oauth.exchangeCode(exchange, signal())).rejects.toEqual(
      new GrantRefusedError('invalid_grant'),
    );
  });

  it('comes back with access_denied when the creator cancels', async () => {
    world = await startWorld();
    const back = new URL(await consentAt(authorizeUrl('st_no'), 'deny'));
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st_no');
  });

  it('refreshes into a new refresh token, after which the old one is refused (rotation)', async () => {
    world = await startWorld();
    const first = await connect();
    const second = await world.network.oauth.refresh?.(first, signal());
    expect(second?.refreshToken).toBeDefined();
    expect(second?.refreshToken).not.toBe(first.refreshToken);
    expect(second?.accessToken).not.toBe(first.accessToken);
    await expect(world.network.oauth.refresh?.(first, signal())).rejects.toEqual(
      new GrantRefusedError('invalid_grant'),
    );
    const third = await world.network.oauth.refresh?.(second ?? first, signal());
    expect(third?.accessToken).toBeDefined();
  });

  it('says the network is unavailable (not a refused grant) for a 5xx or the app’s own credentials refused', async () => {
    world = await startWorld();
    const tokens = await connect();
    world.fake.control.failNext('token', { kind: 'error', status: 503, code: 'internal_error' });
    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
    world.fake.control.failNext('token', { kind: 'oauthError', status: 401, error: 'invalid_client' });
    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
    // TikTok may answer an OAuth error with HTTP 200: it is read all the same.
    world.fake.control.failNext('token', { kind: 'oauthError', status: 200, error: 'invalid_grant' });
    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toEqual(
      new GrantRefusedError('invalid_grant'),
    );
  });

  it('revokes: the access token stops working and so does the refresh token', async () => {
    world = await startWorld();
    const tokens = await connect();
    await world.network.oauth.revoke?.(tokens, signal());
    expect(world.fake.control.accessTokens().find((t) => t.token === tokens.accessToken)?.revoked).toBe(true);
    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toBeInstanceOf(GrantRefusedError);
    await expect(world.network.oauth.readProfile(tokens.accessToken, signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
  });

  it('reads the profile: open_id as the network user id, the @username from creator_info, the display name and avatar', async () => {
    world = await startWorld();
    const tokens = await connect();
    expect(await world.network.oauth.readProfile(tokens.accessToken, signal())).toEqual({
      networkUserId: CREATOR.openId,
      handle: `@${CREATOR.username}`,
      displayName: CREATOR.displayName,
      avatarUrl: CREATOR.avatarUrl,
    });
  });

  it('falls back to the display name as the handle when creator_info fails', async () => {
    world = await startWorld();
    const tokens = await connect();
    world.fake.control.failNext('creator_info', { kind: 'error', status: 500, code: 'internal_error' });
    const profile = await world.network.oauth.readProfile(tokens.accessToken, signal());
    expect(profile.handle).toBe(CREATOR.displayName);
  });

  it('says the network is unavailable when it cannot be reached', async () => {
    world = await startWorld();
    const tokens = await connect();
    await world.fake.stop();
    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
    world = await startWorld();
  });
});
