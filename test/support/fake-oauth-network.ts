import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Platform } from '../../shared/domain/platforms.js';
import type { Network } from '../../shared/networks/network.js';
import {
  GrantRefusedError,
  type NetworkProfile,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../shared/ports/network-oauth.js';
import type { AppCredentials } from '../../shared/runtime/network-config.js';

/** Who consents at the fake's authorize endpoint, and what it grants them. */
export interface FakeUser {
  id: string;
  username: string;
  name: string;
  avatarUrl?: string;
}

interface IssuedCode {
  user: FakeUser;
  clientId: string;
  redirectUri: string;
  codeChallenge?: string;
  used: boolean;
}

export interface FakeOAuthControl {
  /** The person who consents next; `deny` answers error=access_denied. */
  consent: FakeUser | 'deny';
  /** Whether the token answer includes a refresh token. */
  issueRefreshToken: boolean;
  /** Access token lifetime the token answer states, in seconds. */
  expiresInSeconds: number;
  /** The next token request answers 503 (the network is away). */
  failNextToken: boolean;
  /** Access tokens handed out, and those revoked, in order. */
  readonly issuedAccessTokens: string[];
  readonly revokedTokens: string[];
  /** Every request the fake received, as "METHOD /path". */
  readonly requests: string[];
}

export interface FakeOAuthNetwork {
  baseUrl: string;
  control: FakeOAuthControl;
  /** A Network over the fake's HTTP endpoints, with this platform and app. */
  network: Network;
  credentials: AppCredentials;
  stop(): Promise<void>;
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * A tiny OAuth 2.0 network on loopback, for the connect flow's tests: an authorize endpoint that
 * consents at once as `control.consent` (302 back with a code, or access_denied), a token endpoint
 * that checks the client's credentials, the code (once), the redirect URI and the PKCE verifier as
 * a real network does, a profile endpoint and a revoke endpoint.
 */
export async function startFakeOAuthNetwork(
  options: { platform?: Platform; usesPkce?: boolean } = {},
): Promise<FakeOAuthNetwork> {
  const platform = options.platform ?? 'twitter';
  const usesPkce = options.usesPkce ?? true;
  const credentials: AppCredentials = { clientId: 'fake-client', clientSecret: 'fake-secret' };
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, FakeUser>();
  const control: FakeOAuthControl = {
    consent: {
      id: 'user-1',
      username: 'ada',
      name: 'Ada Lovelace',
      avatarUrl: 'https://img.example/ada.png',
    },
    issueRefreshToken: true,
    expiresInSeconds: 7200,
    failNextToken: false,
    issuedAccessTokens: [],
    revokedTokens: [],
    requests: [],
  };

  const authorize = (url: URL, response: ServerResponse) => {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri');
    const state = q.get('state');
    const challenge = q.get('code_challenge');
    const validPkce = !usesPkce || (challenge && q.get('code_challenge_method') === 'S256');
    if (
      q.get('response_type') !== 'code' ||
      q.get('client_id') !== credentials.clientId ||
      !redirectUri ||
      !state ||
      !validPkce
    )
      return sendJson(response, 400, { error: 'invalid_request' });
    const back = new URL(redirectUri);
    back.searchParams.set('state', state);
    if (control.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(12).toString('hex');
      codes.set(code, {
        user: control.consent,
        clientId: credentials.clientId,
        redirectUri,
        ...(challenge && { codeChallenge: challenge }),
        used: false,
      });
      back.searchParams.set('code', code);
    }
    response.writeHead(302, { location: back.toString() });
    response.end();
  };

  const token = async (request: IncomingMessage, response: ServerResponse) => {
    const form = await readForm(request);
    const basic = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
    if (request.headers.authorization !== basic) return sendJson(response, 401, { error: 'invalid_client' });
    if (control.failNextToken) {
      control.failNextToken = false;
      return sendJson(response, 503, { error: 'temporarily_unavailable' });
    }
    const issued = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier');
    const pkceHolds =
      !issued?.codeChallenge || (verifier !== null && s256(verifier) === issued.codeChallenge);
    if (
      form.get('grant_type') !== 'authorization_code' ||
      !issued ||
      issued.used ||
      issued.redirectUri !== form.get('redirect_uri') ||
      !pkceHolds
    )
      return sendJson(response, 400, { error: 'invalid_grant' });
    issued.used = true;
    const accessToken = `at-${randomBytes(8).toString('hex')}`;
    tokens.set(accessToken, issued.user);
    control.issuedAccessTokens.push(accessToken);
    sendJson(response, 200, {
      token_type: 'bearer',
      access_token: accessToken,
      expires_in: control.expiresInSeconds,
      scope: 'read write offline',
      ...(control.issueRefreshToken && { refresh_token: `rt-${randomBytes(8).toString('hex')}` }),
    });
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    control.requests.push(`${request.method} ${url.pathname}`);
    if (request.method === 'GET' && url.pathname === '/authorize') return authorize(url, response);
    if (request.method === 'POST' && url.pathname === '/token') {
      token(request, response).catch(() => sendJson(response, 500, {}));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/me') {
      const user = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!user) return sendJson(response, 401, { error: 'invalid_token' });
      return sendJson(response, 200, user);
    }
    if (request.method === 'POST' && url.pathname === '/revoke') {
      readForm(request).then(
        (form) => {
          control.revokedTokens.push(form.get('token') ?? '');
          sendJson(response, 200, {});
        },
        () => sendJson(response, 500, {}),
      );
      return;
    }
    sendJson(response, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams(fields).toString(),
  });

  const oauth: OAuthProvider = {
    usesPkce,
    scopes: ['read', 'write', 'offline'],
    authorizationUrl(request) {
      const url = new URL(`${baseUrl}/authorize`);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', request.clientId);
      url.searchParams.set('redirect_uri', request.redirectUri);
      url.searchParams.set('state', request.state);
      url.searchParams.set('scope', 'read write offline');
      if (request.codeChallenge) {
        url.searchParams.set('code_challenge', request.codeChallenge);
        url.searchParams.set('code_challenge_method', 'S256');
      }
      return url.toString();
    },
    async exchangeCode(exchange, signal): Promise<TokenSet> {
      const response = await fetch(`${baseUrl}/token`, {
        ...form({
          grant_type: 'authorization_code',
          code: exchange.code,
          redirect_uri: exchange.redirectUri,
          ...(exchange.codeVerifier && { code_verifier: exchange.codeVerifier }),
        }),
        signal,
      });
      const body = (await response.json()) as Record<string, string | number>;
      if (response.status === 400) throw new GrantRefusedError(String(body.error));
      if (!response.ok)
        throw new OAuthUnavailableError('The fake network is unavailable.', String(body.error));
      return {
        accessToken: String(body.access_token),
        ...(body.refresh_token && { refreshToken: String(body.refresh_token) }),
        expiresAt: new Date(Date.now() + Number(body.expires_in) * 1000).toISOString(),
        scopes: String(body.scope).split(' '),
      };
    },
    async readProfile(accessToken, signal): Promise<NetworkProfile> {
      const response = await fetch(`${baseUrl}/me`, {
        headers: { authorization: `Bearer ${accessToken}` },
        signal,
      });
      if (!response.ok) throw new OAuthUnavailableError('The fake network did not answer the profile read.');
      const user = (await response.json()) as FakeUser;
      return {
        networkUserId: user.id,
        handle: `@${user.username}`,
        displayName: user.name,
        ...(user.avatarUrl && { avatarUrl: user.avatarUrl }),
      };
    },
    async revoke(tokenSet, signal) {
      const response = await fetch(`${baseUrl}/revoke`, { ...form({ token: tokenSet.accessToken }), signal });
      if (!response.ok) throw new OAuthUnavailableError('The fake network did not revoke.');
    },
  };

  const network: Network = {
    platform,
    app: platform === 'linkedin' ? 'LINKEDIN' : 'X',
    oauth,
    connector: {
      async publish() {
        return {
          kind: 'failed',
          failure: 'permanent',
          code: 'NOT_IN_THIS_FAKE',
          message: 'The fake only connects.',
        };
      },
    },
  };

  return {
    baseUrl,
    control,
    network,
    credentials,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
