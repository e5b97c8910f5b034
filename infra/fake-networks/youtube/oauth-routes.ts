import { createHash } from 'node:crypto';
import { oauthError, type Reply } from './http.js';
import { type Handler, KNOWN_SCOPES, type RouteContext } from './route.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const form = (context: RouteContext) => new URLSearchParams(context.body.toString('utf8'));
const errorPage = (problem: string): Reply => ({
  status: 400,
  html: `<!doctype html><title>Error 400</title><p>${escapeHtml(problem)}</p>`,
});

function requestProblem(context: RouteContext, params: URLSearchParams): string | undefined {
  if (params.get('client_id') !== context.app.clientId)
    return 'invalid_client: The OAuth client was not found.';
  const redirectUri = params.get('redirect_uri') ?? '';
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return 'redirect_uri_mismatch: The redirect URI must be absolute.';
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || parsed.hash) {
    return 'redirect_uri_mismatch: The redirect URI must be http(s) without a fragment.';
  }
  if (context.app.redirectUris && !context.app.redirectUris.includes(redirectUri)) {
    return 'redirect_uri_mismatch: The redirect URI is not registered for this client.';
  }
  return undefined;
}

function redirectTo(redirectUri: string, params: Record<string, string>): Reply {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return { status: 302, location: target.toString() };
}

/**
 * GET /o/oauth2/v2/auth: Google's consent page, the request checked as Google does (known client,
 * registered redirect, response_type=code, known scopes, S256 when a challenge is sent). The
 * channel signing in is picked on the page; Allow and Cancel post the decision back, carrying the
 * request's parameters.
 */
export const authorizePage: Handler = (context) => {
  const params = context.url.searchParams;
  const problem = requestProblem(context, params);
  if (problem) return errorPage(problem);
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state') ?? '';
  const refuse = (error: string) => redirectTo(redirectUri, { error, ...(state && { state }) });
  if (params.get('response_type') !== 'code') return refuse('unsupported_response_type');
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((scope) => !KNOWN_SCOPES.has(scope))) return refuse('invalid_scope');
  const challenge = params.get('code_challenge') ?? '';
  if (challenge && params.get('code_challenge_method') !== 'S256') return refuse('invalid_request');
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const channels = [...context.store.channels.values()]
    .map((channel) => `<option value="${escapeHtml(channel.id)}">${escapeHtml(channel.title)}</option>`)
    .join('');
  const carried = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'access_type']
    .map((name) => hidden(name, params.get(name) ?? ''))
    .join('');
  return {
    status: 200,
    html: `<!doctype html>
<html><head><title>Google (fake): sign in to continue</title></head>
<body>
<h1>This app wants to access your Google Account</h1>
<p>It asks for: ${scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="/o/oauth2/v2/auth/decision">
${carried}${hidden('scope', scopes.join(' '))}
<label>Channel <select name="channel">${channels}</select></label>
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form>
</body></html>`,
  };
};

/** POST /o/oauth2/v2/auth/decision: Allow → a single-use code; Cancel → access_denied. */
export const authorizeDecision: Handler = (context) => {
  const params = form(context);
  const problem = requestProblem(context, params);
  if (problem) return errorPage(problem);
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state') ?? '';
  if (params.get('decision') !== 'approve') {
    return redirectTo(redirectUri, { error: 'access_denied', ...(state && { state }) });
  }
  const channelId = params.get('channel') || ([...context.store.channels.keys()][0] ?? '');
  if (!context.store.channels.has(channelId)) return errorPage('Unknown channel.');
  const code = `4/${context.store.secret(24)}`;
  const challenge = params.get('code_challenge') ?? '';
  context.store.codes.set(code, {
    code,
    channelId,
    scopes: (params.get('scope') ?? '').split(' ').filter(Boolean),
    redirectUri,
    ...(challenge && { codeChallenge: challenge }),
    offline: params.get('access_type') === 'offline',
    expiresAt: context.settings.now() + context.settings.codeLifetimeMs,
    used: false,
  });
  return redirectTo(redirectUri, { code, ...(state && { state }), scope: params.get('scope') ?? '' });
};

function issueAccess(context: RouteContext, channelId: string, scopes: string[]): string {
  const accessToken = `ya29.${context.store.secret(32)}`;
  context.store.accessTokens.set(accessToken, {
    accessToken,
    channelId,
    scopes,
    expiresAt: context.settings.now() + context.settings.accessTokenSeconds * 1000,
    revoked: false,
  });
  return accessToken;
}

/**
 * POST /token: the code grant (codes single-use, bound to their redirect URI and PKCE challenge; a
 * refresh token only with access_type=offline) and the refresh grant (the refresh token is not
 * rotated, and not repeated in the answer). Client authentication: client_secret_post.
 */
export const token: Handler = (context) => {
  if (!(context.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return oauthError(400, 'invalid_request', 'Invalid content type.');
  }
  const params = form(context);
  if (
    params.get('client_id') !== context.app.clientId ||
    params.get('client_secret') !== context.app.clientSecret
  ) {
    return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
  }
  const now = context.settings.now();
  const grantType = params.get('grant_type');
  if (grantType === 'authorization_code') {
    const code = context.store.codes.get(params.get('code') ?? '');
    if (!code || code.used || code.expiresAt <= now || code.redirectUri !== params.get('redirect_uri')) {
      if (code) code.used = true;
      return oauthError(400, 'invalid_grant', 'Malformed auth code.');
    }
    code.used = true;
    if (code.codeChallenge) {
      const verifier = params.get('code_verifier') ?? '';
      const computed = createHash('sha256').update(verifier).digest('base64url');
      if (computed !== code.codeChallenge) return oauthError(400, 'invalid_grant', 'Invalid code verifier.');
    }
    const answer: Record<string, unknown> = {
      access_token: issueAccess(context, code.channelId, code.scopes),
      expires_in: context.settings.accessTokenSeconds,
      scope: code.scopes.join(' '),
      token_type: 'Bearer',
    };
    if (code.offline) {
      const refreshToken = `1//${context.store.secret(32)}`;
      context.store.refreshTokens.set(refreshToken, {
        refreshToken,
        channelId: code.channelId,
        scopes: code.scopes,
        revoked: false,
      });
      answer.refresh_token = refreshToken;
    }
    return { status: 200, json: answer };
  }
  if (grantType === 'refresh_token') {
    const grant = context.store.refreshTokens.get(params.get('refresh_token') ?? '');
    if (!grant || grant.revoked)
      return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    return {
      status: 200,
      json: {
        access_token: issueAccess(context, grant.channelId, grant.scopes),
        expires_in: context.settings.accessTokenSeconds,
        scope: grant.scopes.join(' '),
        token_type: 'Bearer',
      },
    };
  }
  return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type.');
};

/**
 * POST /revoke (token in the form or the query): revoking either token ends the whole grant, its
 * refresh token and every access token of it, as Google does. An unknown token is 400 invalid_token.
 */
export const revoke: Handler = (context) => {
  const value = form(context).get('token') ?? context.url.searchParams.get('token') ?? '';
  const access = context.store.accessTokens.get(value);
  const refresh = context.store.refreshTokens.get(value);
  const grant = access ?? refresh;
  if (!grant) return oauthError(400, 'invalid_token', 'Token expired or revoked.');
  for (const token of context.store.refreshTokens.values()) {
    if (token.channelId === grant.channelId) token.revoked = true;
  }
  for (const token of context.store.accessTokens.values()) {
    if (token.channelId === grant.channelId) token.revoked = true;
  }
  return { status: 200 };
};
