import * as oauth from 'oauth4webapi';
import { afterEach, describe, expect, it } from 'vitest';
import { googleRevokeUrl, YOUTUBE_SCOPES } from '../../../../shared/networks/youtube/oauth.js';
import { YOUTUBE_ANALYTICS_SCOPE } from '../../../../shared/networks/youtube/scopes.js';
import { GrantRefusedError, OAuthUnavailableError } from '../../../../shared/ports/network-oauth.js';
import { CALLBACK, CHANNEL, startWorld, type YouTubeWorld } from './youtube-world.js';

const signal = () => AbortSignal.timeout(5_000);

/** Follows the authorization URL to the fake's consent page and answers it as the channel owner would. */
async function consent(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<URL> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(
      match[1] ?? '',
      (match[2] ?? '').replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))),
    );
  }
  fields.set('decision', decision);
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1] ?? '';
  const answer = await fetch(new URL(action, authorizeUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

describe('YouTube (Google) OAuth against the fake', () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  const connect = async (state = 'st_1') => {
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const url = world.network.oauth.authorizationUrl({
      clientId: world.fake.clientId,
      state,
      redirectUri: CALLBACK,
      codeChallenge: challenge,
    });
    return { url, verifier };
  };

  it('asks for offline access with a forced consent, the upload, read-only, Analytics and comment (force-ssl) scopes, and a PKCE S256 challenge', async () => {
    world = await startWorld();
    const { url } = await connect('st_abc');
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(world.fake.authorizeUrl);
    expect(Object.fromEntries(parsed.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: world.fake.clientId,
      redirect_uri: CALLBACK,
      state: 'st_abc',
      scope:
        'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/yt-analytics.readonly https://www.googleapis.com/auth/youtube.force-ssl',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
    });
    expect(parsed.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(world.network.oauth.usesPkce).toBe(true);
    expect(world.network.oauth.scopes).toEqual(YOUTUBE_SCOPES);
  });

  it('leaves the Analytics scope (metrics only) out when the app is not approved for the metrics scopes', async () => {
    world = await startWorld();
    const url = world.network.oauth.authorizationUrl({
      clientId: world.fake.clientId,
      state: 'st_no_metrics',
      redirectUri: CALLBACK,
      askMetricsScopes: false,
    });

    expect(new URL(url).searchParams.get('scope')).toBe(
      'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
    );
    expect(world.network.oauth.metricsOnlyScopes).toEqual([YOUTUBE_ANALYTICS_SCOPE]);
  });

  it('exchanges the consent code (with the verifier) for an hour-long access token and a refresh token, then reads the channel as the profile', async () => {
    world = await startWorld();
    const { url, verifier } = await connect();
    const back = await consent(url, 'approve');
    expect(back.searchParams.get('state')).toBe('st_1');
    const before = Date.now();

    const tokens = await world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK, codeVerifier: verifier },
      signal(),
    );

    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.scopes).toEqual([...YOUTUBE_SCOPES]);
    const expiresIn = Date.parse(tokens.expiresAt ?? '') - before;
    expect(expiresIn).toBeGreaterThan(3500_000);
    expect(expiresIn).toBeLessThanOrEqual(3600_000);
    await expect(world.network.oauth.readProfile(tokens.accessToken, signal())).resolves.toEqual({
      networkUserId: CHANNEL.id,
      handle: CHANNEL.customUrl,
      displayName: CHANNEL.title,
      avatarUrl: CHANNEL.thumbnailUrl,
    });
  });

  it('refuses a code exchanged with the wrong verifier, and a code used twice, as a refused grant', async () => {
    world = await startWorld();
    const { url, verifier } = await connect();
    const code = (await consent(url, 'approve')).searchParams.get('code') ?? '';
    await expect(
      world.network.oauth.exchangeCode(
        { code, redirectUri: CALLBACK, codeVerifier: `${verifier}x` },
        signal(),
      ),
    ).rejects.toEqual(new GrantRefusedError('invalid_grant'));
    await expect(
      world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK, codeVerifier: verifier }, signal()),
    ).rejects.toBeInstanceOf(GrantRefusedError);
  });

  it('carries a denied consent back to the callback as access_denied with the state', async () => {
    world = await startWorld();
    const back = await consent((await connect('st_no')).url, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st_no');
  });

  it('refreshes into a new access token while keeping the refresh token Google does not repeat; a revoked refresh token is a refused grant', async () => {
    world = await startWorld();
    const { url, verifier } = await connect();
    const code = (await consent(url, 'approve')).searchParams.get('code') ?? '';
    const tokens = await world.network.oauth.exchangeCode(
      { code, redirectUri: CALLBACK, codeVerifier: verifier },
      signal(),
    );
    const refresh = world.network.oauth.refresh;
    if (!refresh) throw new Error('YouTube refreshes');

    const renewed = await refresh(tokens, signal());
    expect(renewed.accessToken).not.toBe(tokens.accessToken);
    expect(renewed.refreshToken).toBe(tokens.refreshToken);
    await expect(world.network.oauth.readProfile(renewed.accessToken, signal())).resolves.toMatchObject({
      networkUserId: CHANNEL.id,
    });

    world.fake.control.revokeRefreshToken(tokens.refreshToken ?? '');
    await expect(refresh(renewed, signal())).rejects.toEqual(new GrantRefusedError('invalid_grant'));
  });

  it('revokes the grant at the revoke endpoint beside the token endpoint: every token of it stops working', async () => {
    world = await startWorld();
    expect(googleRevokeUrl('https://oauth2.googleapis.com/token')).toBe(
      'https://oauth2.googleapis.com/revoke',
    );
    const { url, verifier } = await connect();
    const code = (await consent(url, 'approve')).searchParams.get('code') ?? '';
    const tokens = await world.network.oauth.exchangeCode(
      { code, redirectUri: CALLBACK, codeVerifier: verifier },
      signal(),
    );

    await world.network.oauth.revoke?.(tokens, signal());

    expect(world.fake.control.refreshTokens().every((token) => token.revoked)).toBe(true);
    expect(world.fake.control.accessTokens().every((token) => token.revoked)).toBe(true);
    await expect(world.network.oauth.readProfile(tokens.accessToken, signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
  });

  it('says the Google account cannot be used when it has no channel, and that Google is unavailable when it fails', async () => {
    world = await startWorld({ channels: [] });
    const token = world.fake.control.issueToken('UCnobody', [...YOUTUBE_SCOPES]);
    await expect(world.network.oauth.readProfile(token, signal())).rejects.toMatchObject({
      name: 'OAuthUnavailableError',
      networkCode: 'noChannel',
    });
    world.fake.control.failNext('token', {
      kind: 'reply',
      reply: { status: 503, json: { error: 'backend' } },
    });
    await expect(
      world.network.oauth.exchangeCode({ code: 'x', redirectUri: CALLBACK, codeVerifier: 'v' }, signal()),
    ).rejects.toBeInstanceOf(OAuthUnavailableError);
  });
});
