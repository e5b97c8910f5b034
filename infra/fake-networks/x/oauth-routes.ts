import { createHash, timingSafeEqual } from 'node:crypto';
import { escapeHtml, oauthError, type Reply } from './http.js';
import type { RouteContext } from './route.js';
import type { FakeAccessToken, FakeRefreshToken, FakeXStore } from './store.js';

/**
 * X's OAuth 2.0 as twitter.md §3 describes it: the consent page, the token endpoint (codes single
 * use, 30 s to exchange, PKCE checked, HTTP Basic client auth for a confidential client, refresh
 * tokens single use with rotation) and revoke.
 */

/** Scopes X knows; asking for another is invalid_scope. */
const KNOWN_SCOPES = new Set([
  'tweet.read',
  'tweet.write',
  'tweet.moderate.write',
  'users.read',
  'follows.read',
  'follows.write',
  'offline.access',
  'space.read',
  'mute.read',
  'mute.write',
  'like.read',
  'like.write',
  'list.read',
  'list.write',
  'block.read',
  'block.write',
  'bookmark.read',
  'bookmark.write',
  'media.write',
]);

const MAX_STATE_CHARS = 500;

function errorPage(message: string): Reply {
  return {
    status: 400,
    html: `<!doctype html><title>X (fake): error</title><h1>Something went wrong</h1><p>${escapeHtml(message)}</p>`,
  };
}

function redirectWith(redirectUri: string, parameters: Record<string, string>): Reply {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
  return { status: 302, location: target.toString() };
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** GET /i/oauth2/authorize: checks the request, then shows the consent page. */
export function authorizePage(context: RouteContext): Reply {
  const query = context.url.searchParams;
  const clientId = query.get('client_id') ?? '';
  const redirectUri = query.get('redirect_uri') ?? '';
  if (clientId !== context.app.clientId) return errorPage('This app is not known (client_id).');
  const registered = context.app.redirectUris;
  if (!isHttpUrl(redirectUri) || (registered && !registered.includes(redirectUri))) {
    return errorPage('The redirect_uri is not one this app registered.');
  }
  const state = query.get('state') ?? '';
  const refuse = (error: string, description: string) =>
    redirectWith(redirectUri, { error, error_description: description, ...(state && { state }) });
  if (query.get('response_type') !== 'code')
    return refuse('unsupported_response_type', 'response_type must be code');
  if (!state || state.length > MAX_STATE_CHARS)
    return refuse('invalid_request', 'state is required (≤ 500 characters)');
  const scopes = (query.get('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((scope) => !KNOWN_SCOPES.has(scope))) {
    return refuse('invalid_scope', 'unknown scope');
  }
  const codeChallenge = query.get('code_challenge') ?? '';
  const method = query.get('code_challenge_method') ?? 'plain';
  if (!codeChallenge || (method !== 'S256' && method !== 'plain')) {
    return refuse('invalid_request', 'code_challenge (S256 or plain) is required');
  }
  const ticket = context.store.secret('consent_');
  context.store.consents.set(ticket, {
    ticket,
    clientId,
    redirectUri,
    scopes,
    state,
    codeChallenge,
    codeChallengeMethod: method,
  });
  const options = [...context.store.users.values()]
    .map(
      (user) =>
        `<option value="${escapeHtml(user.id)}">@${escapeHtml(user.username)} (${escapeHtml(user.name)})</option>`,
    )
    .join('');
  return {
    status: 200,
    html: `<!doctype html>
<html><head><meta charset="utf-8"><title>Authorize app (X fake)</title></head>
<body>
<h1>An app wants to access your X account</h1>
<p>It asks for: ${scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="/i/oauth2/authorize/decide">
<input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
<label>Sign in as <select name="user">${options}</select></label>
<button type="submit" name="decision" value="approve">Authorize app</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form>
</body></html>`,
  };
}

/** POST /i/oauth2/authorize/decide: the person's answer; back to the app either way. */
export function decide(context: RouteContext): Reply {
  const form = new URLSearchParams(context.body.toString('utf8'));
  const consent = context.store.consents.get(form.get('ticket') ?? '');
  if (!consent) return errorPage('This consent page has expired; start again from the app.');
  context.store.consents.delete(consent.ticket);
  if (form.get('decision') !== 'approve') {
    return redirectWith(consent.redirectUri, { error: 'access_denied', state: consent.state });
  }
  const firstUser = context.store.users.keys().next().value;
  const userId = form.get('user') ?? firstUser;
  if (!userId || !context.store.users.has(userId)) return errorPage('No such user.');
  const code = context.store.secret('code_');
  context.store.codes.set(code, {
    code,
    clientId: consent.clientId,
    redirectUri: consent.redirectUri,
    scopes: consent.scopes,
    userId,
    codeChallenge: consent.codeChallenge,
    codeChallengeMethod: consent.codeChallengeMethod,
    expiresAt: context.store.now() + context.settings.codeLifetimeMs,
    used: false,
  });
  return redirectWith(consent.redirectUri, { state: consent.state, code });
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** HTTP Basic with the form-encoded id and secret (RFC 6749 §2.3.1), as a confidential client must. */
function clientAuthenticated(context: RouteContext): boolean {
  const header = context.headers.authorization ?? '';
  const match = /^Basic\s+(.+)$/i.exec(header);
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const formDecode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return (
    safeEqual(formDecode(decoded.slice(0, colon)), context.app.clientId) &&
    safeEqual(formDecode(decoded.slice(colon + 1)), context.app.clientSecret)
  );
}

const MISSING_CLIENT_AUTH = () =>
  oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
const INVALID_CODE = () =>
  oauthError(400, 'invalid_request', 'Value passed for the authorization code was invalid.');
const INVALID_TOKEN = () => oauthError(400, 'invalid_request', 'Value passed for the token was invalid.');

function challengeOf(verifier: string, method: 'S256' | 'plain'): string {
  return method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
}

function issueTokens(
  store: FakeXStore,
  grant: { userId: string; clientId: string; scopes: string[]; grantId: string },
  accessTokenSeconds: number,
): Reply {
  const access: FakeAccessToken = {
    token: store.secret('xat_'),
    grantId: grant.grantId,
    userId: grant.userId,
    clientId: grant.clientId,
    scopes: grant.scopes,
    expiresAt: store.now() + accessTokenSeconds * 1000,
    revoked: false,
  };
  store.accessTokens.set(access.token, access);
  let refresh: FakeRefreshToken | undefined;
  if (grant.scopes.includes('offline.access')) {
    refresh = {
      token: store.secret('xrt_'),
      grantId: grant.grantId,
      userId: grant.userId,
      clientId: grant.clientId,
      scopes: grant.scopes,
      used: false,
      revoked: false,
    };
    store.refreshTokens.set(refresh.token, refresh);
  }
  return {
    status: 200,
    json: {
      token_type: 'bearer',
      expires_in: accessTokenSeconds,
      access_token: access.token,
      scope: grant.scopes.join(' '),
      ...(refresh && { refresh_token: refresh.token }),
    },
  };
}

/** POST /2/oauth2/token: authorization_code and refresh_token grants. */
export function token(context: RouteContext): Reply {
  if (!clientAuthenticated(context)) return MISSING_CLIENT_AUTH();
  const form = new URLSearchParams(context.body.toString('utf8'));
  const { store } = context;
  switch (form.get('grant_type')) {
    case 'authorization_code': {
      const code = store.codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!code || code.used || code.clientId !== context.app.clientId) return INVALID_CODE();
      // Single use whatever happens next: a code presented twice is a code leaked.
      code.used = true;
      if (code.expiresAt <= store.now()) return INVALID_CODE();
      if (form.get('redirect_uri') !== code.redirectUri) return INVALID_CODE();
      if (!verifier || !safeEqual(challengeOf(verifier, code.codeChallengeMethod), code.codeChallenge)) {
        return INVALID_CODE();
      }
      return issueTokens(
        store,
        {
          userId: code.userId,
          clientId: code.clientId,
          scopes: code.scopes,
          grantId: store.secret('grant_'),
        },
        context.settings.accessTokenSeconds,
      );
    }
    case 'refresh_token': {
      const refresh = store.refreshTokens.get(form.get('refresh_token') ?? '');
      if (!refresh || refresh.used || refresh.revoked || refresh.clientId !== context.app.clientId) {
        return INVALID_TOKEN();
      }
      refresh.used = true;
      return issueTokens(store, refresh, context.settings.accessTokenSeconds);
    }
    default:
      return oauthError(
        400,
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token',
      );
  }
}

/** POST /2/oauth2/revoke: a refresh token ends its whole grant; an access token only itself. */
export function revoke(context: RouteContext): Reply {
  if (!clientAuthenticated(context)) return MISSING_CLIENT_AUTH();
  const value = new URLSearchParams(context.body.toString('utf8')).get('token') ?? '';
  const { store } = context;
  const refresh = store.refreshTokens.get(value);
  if (refresh) {
    for (const candidate of [...store.refreshTokens.values(), ...store.accessTokens.values()]) {
      if (candidate.grantId === refresh.grantId) candidate.revoked = true;
    }
  }
  const access = store.accessTokens.get(value);
  if (access) access.revoked = true;
  // RFC 7009: an unknown token is answered as revoked too.
  return { status: 200, json: { revoked: true } };
}
