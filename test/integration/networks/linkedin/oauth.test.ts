import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_LINKEDIN_COMMUNITY_PRODUCTS } from '../../../../infra/fake-networks/linkedin/index.js';
import { LINKEDIN_MEMBER_SCOPES, makeLinkedInOAuth } from '../../../../shared/networks/linkedin/oauth.js';
import { GrantRefusedError, OAuthUnavailableError } from '../../../../shared/ports/network-oauth.js';
import { aRequest, CALLBACK, type LinkedInWorld, MEMBER, startWorld } from './linkedin-world.js';

const signal = () => AbortSignal.timeout(5_000);

/** Follows the authorization URL to the fake's consent page and answers it as the member would. */
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

describe('LinkedIn OAuth against the fake', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  const authorizeUrl = (state = 'st_123') =>
    world.network.oauth.authorizationUrl({ clientId: world.fake.clientId, state, redirectUri: CALLBACK });

  it('builds the authorization URL LinkedIn expects: code flow, the member app, our callback, the state, its scopes, no PKCE', async () => {
    world = await startWorld();
    const url = new URL(authorizeUrl());
    expect(`${url.origin}${url.pathname}`).toBe(`${world.fake.oauthUrl}/authorization`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: world.fake.clientId,
      redirect_uri: CALLBACK,
      state: 'st_123',
      scope: 'openid profile w_member_social',
    });
    expect(world.network.oauth.usesPkce).toBe(false);
    expect(world.network.oauth.scopes).toEqual(LINKEDIN_MEMBER_SCOPES);
  });

  it('exchanges the code the consent returns for a 60-day token with the granted scopes, and no refresh token for an app without programmatic refresh', async () => {
    world = await startWorld();
    const before = Date.now();
    const back = await consent(authorizeUrl('st_abc'), 'approve');
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('state')).toBe('st_abc');
    const code = back.searchParams.get('code') ?? '';

    const tokens = await world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal());

    expect(tokens.refreshToken).toBeUndefined();
    expect(tokens.refreshExpiresAt).toBeUndefined();
    expect(tokens.scopes).toEqual(LINKEDIN_MEMBER_SCOPES);
    const days = (Date.parse(tokens.expiresAt ?? '') - before) / 86_400_000;
    expect(days).toBeGreaterThan(59.99);
    expect(days).toBeLessThan(60.01);
    expect(world.fake.control.accessTokens().map((t) => t.accessToken)).toEqual([tokens.accessToken]);
    // Without a refresh token there is nothing to refresh with: the account must reconnect.
    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toEqual(
      new GrantRefusedError('no_refresh_token'),
    );
  });

  it('refreshes when LinkedIn issued a refresh token: a new access token, the same refresh token, its expiry not extended', async () => {
    world = await startWorld({ issueRefreshTokens: true });
    const back = await consent(authorizeUrl(), 'approve');
    const tokens = await world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );
    expect(tokens.refreshToken).toBeDefined();
    const yearAhead = Date.parse(tokens.refreshExpiresAt ?? '') - Date.now();
    expect(yearAhead / 86_400_000).toBeGreaterThan(364.9);

    const refreshed = await world.network.oauth.refresh?.(tokens, signal());

    expect(refreshed?.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed?.refreshToken).toBe(tokens.refreshToken);
    expect(Date.parse(refreshed?.refreshExpiresAt ?? '')).toBeLessThanOrEqual(
      Date.parse(tokens.refreshExpiresAt ?? ''),
    );
    expect(refreshed?.scopes).toEqual(LINKEDIN_MEMBER_SCOPES);
    // The new token works.
    const profile = await world.network.oauth.readProfile(refreshed?.accessToken ?? '', signal());
    expect(profile.networkUserId).toBe(MEMBER.sub);
  });

  it('refuses a refresh token LinkedIn revoked as invalid_grant (the account is then disconnected)', async () => {
    world = await startWorld({ issueRefreshTokens: true });
    const back = await consent(authorizeUrl(), 'approve');
    const tokens = await world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );
    await world.network.oauth.revoke?.({ ...tokens, accessToken: tokens.refreshToken ?? '' }, signal());

    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toEqual(
      new GrantRefusedError('invalid_grant'),
    );
  });

  it('takes a code once: a second exchange is refused as invalid_grant', async () => {
    world = await startWorld();
    const back = await consent(authorizeUrl(), 'approve');
    const exchange = { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK };
    await world.network.oauth.exchangeCode(exchange, signal());

    await expect(world.network.oauth.exchangeCode(exchange, signal())).rejects.toEqual(
      new GrantRefusedError('invalid_grant'),
    );
  });

  it('treats a refused client secret as a configuration problem, not a refused grant', async () => {
    world = await startWorld();
    const back = await consent(authorizeUrl(), 'approve');
    const misconfigured = makeLinkedInOAuth({
      oauthUrl: world.fake.oauthUrl,
      apiUrl: world.fake.apiUrl,
      appCredentials: async () => ({ clientId: world.fake.clientId, clientSecret: 'not-the-secret' }),
    });

    const exchange = misconfigured.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );

    await expect(exchange).rejects.toBeInstanceOf(OAuthUnavailableError);
    await expect(exchange).rejects.toMatchObject({ networkCode: 'invalid_client' });
  });

  it('sends a member who cancels back with access_denied and the state', async () => {
    world = await startWorld();
    const back = await consent(authorizeUrl('st_no'), 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st_no');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('is refused by LinkedIn as a whole when the app lacks one scope asked for (all or nothing): the member app’s request at a Community Management app', async () => {
    world = await startWorld({
      apps: [{ clientId: 'fake-linkedin-client', products: FAKE_LINKEDIN_COMMUNITY_PRODUCTS }],
    });
    const answer = await fetch(authorizeUrl('st_scope'), { redirect: 'manual' });
    const back = new URL(answer.headers.get('location') ?? '');
    expect(back.searchParams.get('error')).toBe('unauthorized_scope_error');
    expect(back.searchParams.get('state')).toBe('st_scope');
  });

  it('reads the profile from userinfo: the member id, their name as display name and handle, the picture', async () => {
    world = await startWorld();
    const back = await consent(authorizeUrl(), 'approve');
    const tokens = await world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );

    const profile = await world.network.oauth.readProfile(tokens.accessToken, signal());

    expect(profile).toEqual({
      networkUserId: MEMBER.sub,
      handle: MEMBER.name,
      displayName: MEMBER.name,
      avatarUrl: MEMBER.picture,
    });
  });

  it('revokes the access token: LinkedIn then refuses it (65601), which a publish reports as a refused token', async () => {
    world = await startWorld();
    const back = await consent(authorizeUrl(), 'approve');
    const tokens = await world.network.oauth.exchangeCode(
      { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
      signal(),
    );

    await world.network.oauth.revoke?.(tokens, signal());

    expect(world.fake.control.accessTokens()[0]?.revoked).toBe(true);
    await expect(world.network.oauth.readProfile(tokens.accessToken, signal())).rejects.toBeInstanceOf(
      OAuthUnavailableError,
    );
    const outcome = await world.network.connector.publish(aRequest(world, tokens.accessToken));
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'auth_rejected', platformRawCode: '65601' });
    expect(world.fake.control.posts()).toHaveLength(0);
  });

  it('reports LinkedIn being unreachable as unavailable, never as a refused grant', async () => {
    world = await startWorld();
    const closed = await startWorld();
    await closed.stop();
    const unreachable = makeLinkedInOAuth({
      oauthUrl: closed.fake.oauthUrl,
      apiUrl: closed.fake.apiUrl,
      appCredentials: async () => ({ clientId: 'id', clientSecret: 'secret' }),
    });

    const exchange = unreachable.exchangeCode({ code: 'x', redirectUri: CALLBACK }, signal());

    await expect(exchange).rejects.toBeInstanceOf(OAuthUnavailableError);
  });
});
