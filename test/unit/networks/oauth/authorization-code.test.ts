import { describe, expect, it } from 'vitest';
import { makeAuthorizationCodeOAuth } from '../../../../shared/networks/oauth/authorization-code.js';
import {
  type AuthorizationCodeDeclaration,
  refusesAllButClientErrors,
} from '../../../../shared/networks/oauth/authorization-code-declaration.js';
import {
  GrantRefusedError,
  OAuthUnavailableError,
  type TokenSet,
} from '../../../../shared/ports/network-oauth.js';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  form: Record<string, string>;
}

interface Canned {
  status: number;
  body?: unknown;
}

/** A network that answers each request with the next canned answer and keeps what it was sent. */
function recordingNetwork(...answers: Canned[]) {
  const sent: Sent[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      form: Object.fromEntries(new URLSearchParams(typeof init?.body === 'string' ? init.body : '')),
    });
    const answer = answers.shift() ?? { status: 500 };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

const NOW = Date.parse('2026-01-10T00:00:00Z');
const app = { clientId: 'the app', clientSecret: 's3cret:+!' };
const signal = () => AbortSignal.timeout(5_000);
const TOKENS = { access_token: 'at-2', refresh_token: 'rt-2', expires_in: 3600, scope: 'read write' };

function declaration(overrides: Partial<AuthorizationCodeDeclaration> = {}): AuthorizationCodeDeclaration {
  return {
    network: 'Net',
    scopes: ['read', 'write'],
    usesPkce: true,
    authorize: { url: 'https://net.test/authorize' },
    token: { url: 'https://net.test/token', clientAuthentication: 'basic', withoutScope: 'asked' },
    revoke: { url: 'https://net.test/revoke', tokens: (tokens) => [tokens.accessToken] },
    readProfile: async () => ({ networkUserId: 'u1', handle: '@u1', displayName: 'U' }),
    ...overrides,
  };
}

function provider(
  network: ReturnType<typeof recordingNetwork>,
  overrides: Partial<AuthorizationCodeDeclaration> = {},
) {
  return makeAuthorizationCodeOAuth(declaration(overrides), {
    appCredentials: async () => app,
    fetch: network.fetch,
    now: () => NOW,
  });
}

const request = { clientId: 'the app', state: 'st', redirectUri: 'https://api.test/cb', codeChallenge: 'ch' };

describe('the authorization code block', () => {
  it('writes the consent page address: the standard parameters, the network’s own, then the challenge', () => {
    const url = new URL(
      provider(recordingNetwork(), {
        authorize: { url: 'https://net.test/authorize', parameters: [['access_type', 'offline']] },
      }).authorizationUrl(request),
    );
    expect([...url.searchParams]).toEqual([
      ['response_type', 'code'],
      ['client_id', 'the app'],
      ['redirect_uri', 'https://api.test/cb'],
      ['scope', 'read write'],
      ['state', 'st'],
      ['access_type', 'offline'],
      ['code_challenge', 'ch'],
      ['code_challenge_method', 'S256'],
    ]);
  });

  it('names the app and joins the scopes the network’s way, and sends no challenge without PKCE', () => {
    const url = new URL(
      provider(recordingNetwork(), {
        usesPkce: false,
        clientIdParameter: 'client_key',
        authorize: { url: 'https://net.test/authorize', scopeDelimiter: ',' },
      }).authorizationUrl(request),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_key: 'the app',
      redirect_uri: 'https://api.test/cb',
      scope: 'read,write',
      state: 'st',
    });
  });

  it('exchanges a code with HTTP Basic (the id and secret form-encoded) and the PKCE verifier', async () => {
    const network = recordingNetwork({ status: 200, body: TOKENS });
    const tokens = await provider(network).exchangeCode(
      { code: 'c1', redirectUri: 'https://api.test/cb', codeVerifier: 'v1' },
      signal(),
    );
    expect(tokens).toEqual({
      accessToken: 'at-2',
      refreshToken: 'rt-2',
      expiresAt: '2026-01-10T01:00:00.000Z',
      scopes: ['read', 'write'],
    });
    const [sent] = network.sent;
    expect(sent?.form).toEqual({
      grant_type: 'authorization_code',
      code: 'c1',
      redirect_uri: 'https://api.test/cb',
      code_verifier: 'v1',
    });
    expect(sent?.headers.authorization).toBe(`Basic ${btoa('the+app:s3cret%3A%2B%21')}`);
    expect(sent?.headers.accept).toBe('application/json');
    expect(sent?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('puts the credentials in the form under the network’s name for the id, and no verifier without PKCE', async () => {
    const network = recordingNetwork({ status: 200, body: TOKENS });
    await provider(network, {
      usesPkce: false,
      clientIdParameter: 'client_key',
      token: { url: 'https://net.test/token', clientAuthentication: 'form', withoutScope: 'asked' },
      headers: { 'Cache-Control': 'no-cache' },
    }).exchangeCode({ code: 'c1', redirectUri: 'https://api.test/cb', codeVerifier: 'v1' }, signal());
    const [sent] = network.sent;
    expect(sent?.form).toEqual({
      grant_type: 'authorization_code',
      code: 'c1',
      redirect_uri: 'https://api.test/cb',
      client_key: 'the app',
      client_secret: 's3cret:+!',
    });
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers['cache-control']).toBe('no-cache');
  });

  it('refreshes: the answer’s refresh token replaces the old, one left out keeps it, and so do unnamed scopes', async () => {
    const held: TokenSet = { accessToken: 'at-1', refreshToken: 'rt-1', scopes: ['read'] };
    const rotating = recordingNetwork({ status: 200, body: TOKENS });
    expect(await provider(rotating).refresh?.(held, signal())).toMatchObject({ refreshToken: 'rt-2' });
    expect(rotating.sent[0]?.form).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-1' });

    const keeping = recordingNetwork({ status: 200, body: { access_token: 'at-3' } });
    expect(
      await provider(keeping, {
        token: { url: 'https://net.test/token', clientAuthentication: 'basic', withoutScope: 'unknown' },
      }).refresh?.(held, signal()),
    ).toEqual({ accessToken: 'at-3', refreshToken: 'rt-1', scopes: ['read'] });
  });

  it('reads the granted scopes with the network’s separator and the refresh token’s lifetime where it says it', async () => {
    const network = recordingNetwork({
      status: 200,
      body: { ...TOKENS, scope: 'read,write', refresh_expires_in: 86_400 },
    });
    const tokens = await provider(network, {
      token: {
        url: 'https://net.test/token',
        clientAuthentication: 'form',
        withoutScope: 'unknown',
        grantedScopeSeparator: /[\s,]+/,
        refreshLifetimeField: 'refresh_expires_in',
      },
    }).exchangeCode({ code: 'c1', redirectUri: 'https://api.test/cb' }, signal());
    expect(tokens.scopes).toEqual(['read', 'write']);
    expect(tokens.refreshExpiresAt).toBe('2026-01-11T00:00:00.000Z');
  });

  it('refuses the grant for invalid_grant only by default, without the network’s description', async () => {
    const refused = recordingNetwork({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'the words' },
    });
    const refusal = provider(refused).exchangeCode(
      { code: 'c1', redirectUri: 'https://api.test/cb' },
      signal(),
    );
    await expect(refusal).rejects.toEqual(new GrantRefusedError('invalid_grant'));
    await expect(refusal).rejects.not.toMatchObject({ message: expect.stringContaining('the words') });

    const client = recordingNetwork({ status: 401, body: { error: 'invalid_client' } });
    await expect(
      provider(client).exchangeCode({ code: 'c1', redirectUri: 'https://api.test/cb' }, signal()),
    ).rejects.toMatchObject({ name: 'OAuthUnavailableError', networkCode: 'invalid_client' });
  });

  it('applies the network’s refusal rule: a stale code is any error but a refused client, a refresh only invalid_grant', async () => {
    const rules = {
      clientAuthentication: 'form',
      withoutScope: 'asked',
      refusesGrant: refusesAllButClientErrors,
    } as const;
    const oauth = (network: ReturnType<typeof recordingNetwork>) =>
      provider(network, { token: { url: 'https://net.test/token', ...rules } });
    await expect(
      oauth(recordingNetwork({ status: 400, body: { error: 'invalid_request' } })).exchangeCode(
        { code: 'c1', redirectUri: 'https://api.test/cb' },
        signal(),
      ),
    ).rejects.toEqual(new GrantRefusedError('invalid_request'));
    await expect(
      oauth(recordingNetwork({ status: 400, body: { error: 'invalid_request' } })).refresh?.(
        { accessToken: 'a', refreshToken: 'r', scopes: [] },
        signal(),
      ),
    ).rejects.toBeInstanceOf(OAuthUnavailableError);
  });

  it('reads a 200 answer for an error where the network answers errors so', async () => {
    const network = recordingNetwork({ status: 200, body: { error: 'invalid_grant' } });
    await expect(
      provider(network, {
        token: {
          url: 'https://net.test/token',
          clientAuthentication: 'form',
          withoutScope: 'asked',
          errorsInOkAnswers: true,
        },
      }).refresh?.({ accessToken: 'a', refreshToken: 'r', scopes: [] }, signal()),
    ).rejects.toEqual(new GrantRefusedError('invalid_grant'));
  });

  it('says the network is unavailable for a 5xx, an unreadable answer, or an app without credentials', async () => {
    const exchange = { code: 'c1', redirectUri: 'https://api.test/cb' };
    await expect(
      provider(recordingNetwork({ status: 503, body: { error: 'invalid_grant' } })).exchangeCode(
        exchange,
        signal(),
      ),
    ).rejects.toBeInstanceOf(OAuthUnavailableError);
    await expect(
      provider(recordingNetwork({ status: 200, body: { token: 'x' } })).exchangeCode(exchange, signal()),
    ).rejects.toBeInstanceOf(OAuthUnavailableError);
    const unconfigured = recordingNetwork();
    await expect(
      makeAuthorizationCodeOAuth(declaration(), {
        appCredentials: async () => undefined,
        fetch: unconfigured.fetch,
      }).exchangeCode(exchange, signal()),
    ).rejects.toBeInstanceOf(OAuthUnavailableError);
    expect(unconfigured.sent).toEqual([]);
  });

  it('refuses a refresh without a refresh token without asking the network', async () => {
    const network = recordingNetwork();
    await expect(provider(network).refresh?.({ accessToken: 'a', scopes: [] }, signal())).rejects.toEqual(
      new GrantRefusedError('no_refresh_token'),
    );
    expect(network.sent).toEqual([]);
  });

  it('revokes the declared tokens in order, authenticated unless the network takes the token alone', async () => {
    const held: TokenSet = { accessToken: 'at-1', refreshToken: 'rt-1', scopes: [] };
    const both = recordingNetwork({ status: 200 }, { status: 200 });
    await provider(both, {
      revoke: {
        url: 'https://net.test/revoke',
        tokens: (tokens) => [tokens.refreshToken ?? '', tokens.accessToken],
      },
    }).revoke?.(held, signal());
    expect(both.sent.map((sent) => sent.form)).toEqual([{ token: 'rt-1' }, { token: 'at-1' }]);
    expect(both.sent[0]?.headers.authorization).toMatch(/^Basic /);

    const alone = recordingNetwork({ status: 200 });
    await provider(alone, {
      revoke: {
        url: 'https://net.test/revoke',
        tokens: (tokens) => [tokens.accessToken],
        unauthenticated: true,
      },
    }).revoke?.(held, signal());
    expect(alone.sent[0]?.headers.authorization).toBeUndefined();
    expect(alone.sent[0]?.form).toEqual({ token: 'at-1' });

    const refused = recordingNetwork({ status: 400, body: { error: 'unsupported_token_type' } });
    await expect(provider(refused).revoke?.(held, signal())).rejects.toMatchObject({
      name: 'OAuthUnavailableError',
      networkCode: 'unsupported_token_type',
    });
  });

  it('has no revoke where the network declares none, and the network’s own refresh where it has one', async () => {
    const own = async (tokens: TokenSet) => ({ ...tokens, accessToken: 'renewed' });
    const { revoke: _none, ...withoutRevoke } = declaration();
    const oauth = makeAuthorizationCodeOAuth(
      { ...withoutRevoke, refresh: own },
      { appCredentials: async () => app, fetch: recordingNetwork().fetch },
    );
    expect(oauth.revoke).toBeUndefined();
    expect(await oauth.refresh?.({ accessToken: 'a', scopes: [] }, signal())).toMatchObject({
      accessToken: 'renewed',
    });
    expect(provider(recordingNetwork(), { refresh: false }).refresh).toBeUndefined();
  });
});
