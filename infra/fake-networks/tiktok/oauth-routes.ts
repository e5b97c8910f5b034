import type { Handler, RouteContext } from './context.js';
import { FAKE_TIKTOK_SCOPES } from './context.js';
import { escapeHtml, oauthError, type Reply } from './http.js';

function redirectTo(target: string, params: Record<string, string>): Reply {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { status: 302, location: url.toString() };
}

function redirectProblem(context: RouteContext, redirectUri: string): string | undefined {
  if (context.app.redirectUris) {
    return context.app.redirectUris.includes(redirectUri) ? undefined : 'redirect_uri is not registered.';
  }
  try {
    const url = new URL(redirectUri);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? undefined
      : 'redirect_uri must be http(s).';
  } catch {
    return 'redirect_uri must be an absolute URL.';
  }
}

function errorPage(problem: string): Reply {
  return { status: 400, html: `<!doctype html><title>Error</title><p>${escapeHtml(problem)}</p>` };
}

/** GET /v2/auth/authorize/: the consent page (TikTok names the app by `client_key`). */
export const authorizePage: Handler = (context) => {
  const params = context.url.searchParams;
  if (params.get('client_key') !== context.app.clientKey) return errorPage('Unknown client_key.');
  if (params.has('client_id')) return errorPage('TikTok takes client_key, not client_id.');
  const redirectUri = params.get('redirect_uri') ?? '';
  const problem = redirectProblem(context, redirectUri);
  if (problem) return errorPage(problem);
  if (params.get('response_type') !== 'code') return errorPage('response_type must be code.');
  const state = params.get('state') ?? '';
  const scopes = (params.get('scope') ?? '').split(',').filter(Boolean);
  const refused = scopes.filter(
    (scope) => !FAKE_TIKTOK_SCOPES.includes(scope) || !context.app.scopes.includes(scope),
  );
  if (scopes.length === 0 || refused.length > 0) {
    return redirectTo(redirectUri, {
      error: 'invalid_scope',
      error_description: 'A scope is unknown or not approved for the app.',
      state,
    });
  }
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const creators = [...context.state.creators.values()]
    .map((c) => `<option value="${escapeHtml(c.openId)}">@${escapeHtml(c.username)}</option>`)
    .join('');
  return {
    status: 200,
    html: `<!doctype html>
<html><head><title>TikTok (fake): authorize</title></head>
<body>
<h1>Let this app access your TikTok account?</h1>
<p>It asks for: ${scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="/v2/auth/authorize/decision">
${hidden('client_key', context.app.clientKey)}${hidden('redirect_uri', redirectUri)}${hidden('state', state)}${hidden('scope', scopes.join(','))}
<label>Signed in as <select name="open_id">${creators}</select></label>
<button type="submit" name="decision" value="approve">Authorize</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form>
</body></html>`,
  };
};

/** POST /v2/auth/authorize/decision: Authorize → a single-use code; Cancel → access_denied. */
export const authorizeDecision: Handler = (context) => {
  const params = new URLSearchParams(context.body.toString('utf8'));
  const redirectUri = params.get('redirect_uri') ?? '';
  if (params.get('client_key') !== context.app.clientKey) return errorPage('Unknown client_key.');
  const problem = redirectProblem(context, redirectUri);
  if (problem) return errorPage(problem);
  const state = params.get('state') ?? '';
  if (params.get('decision') !== 'approve') {
    return redirectTo(redirectUri, {
      error: 'access_denied',
      error_description: 'The user cancelled.',
      state,
    });
  }
  const openId = params.get('open_id') ?? '';
  if (!context.state.creators.has(openId)) return errorPage('Unknown user.');
  const code = context.state.secret(20);
  context.state.codes.set(code, {
    openId,
    scopes: (params.get('scope') ?? '').split(',').filter(Boolean),
    redirectUri,
    expiresAt: context.settings.now() + context.settings.codeLifetimeMs,
  });
  return redirectTo(redirectUri, { code, scopes: params.get('scope') ?? '', state });
};

function issue(context: RouteContext, openId: string, scopes: string[]): Reply {
  const { state, settings } = context;
  const now = settings.now();
  const accessToken = `act.${state.secret(24)}`;
  const refreshToken = `rft.${state.secret(24)}`;
  state.accessTokens.set(accessToken, {
    token: accessToken,
    openId,
    scopes,
    expiresAt: now + settings.accessTokenSeconds * 1000,
    revoked: false,
  });
  state.refreshTokens.set(refreshToken, {
    token: refreshToken,
    openId,
    scopes,
    expiresAt: now + settings.refreshTokenSeconds * 1000,
    active: true,
  });
  return {
    status: 200,
    json: {
      access_token: accessToken,
      expires_in: settings.accessTokenSeconds,
      open_id: openId,
      refresh_expires_in: settings.refreshTokenSeconds,
      refresh_token: refreshToken,
      scope: scopes.join(','),
      token_type: 'Bearer',
    },
  };
}

function clientProblem(context: RouteContext, params: URLSearchParams): Reply | undefined {
  if (
    params.get('client_key') !== context.app.clientKey ||
    params.get('client_secret') !== context.app.clientSecret
  ) {
    return oauthError(401, 'invalid_client', 'Client key or secret is invalid.');
  }
  return undefined;
}

/** POST /v2/oauth/token/: the code exchange and the refresh, which rotates the refresh token. */
export const token: Handler = (context) => {
  if (!String(context.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return oauthError(400, 'invalid_request', 'The body must be form-encoded.');
  }
  const params = new URLSearchParams(context.body.toString('utf8'));
  const refused = clientProblem(context, params);
  if (refused) return refused;
  const now = context.settings.now();
  const grantType = params.get('grant_type');
  if (grantType === 'authorization_code') {
    const code = params.get('code') ?? '';
    const grant = context.state.codes.get(code);
    context.state.codes.delete(code);
    if (!grant || grant.expiresAt <= now || grant.redirectUri !== params.get('redirect_uri')) {
      return oauthError(400, 'invalid_grant', 'Authorization code is expired or invalid.');
    }
    return issue(context, grant.openId, grant.scopes);
  }
  if (grantType === 'refresh_token') {
    const old = context.state.refreshTokens.get(params.get('refresh_token') ?? '');
    if (!old?.active || old.expiresAt <= now) {
      return oauthError(400, 'invalid_grant', 'Refresh token is invalid or expired.');
    }
    old.active = false;
    return issue(context, old.openId, old.scopes);
  }
  return oauthError(400, 'unsupported_grant_type', 'Unsupported grant type.');
};

/** POST /v2/oauth/revoke/: the access token and every refresh token of that grant stop working. */
export const revoke: Handler = (context) => {
  const params = new URLSearchParams(context.body.toString('utf8'));
  const refused = clientProblem(context, params);
  if (refused) return refused;
  const access = context.state.accessTokens.get(params.get('token') ?? '');
  if (!access) return oauthError(400, 'invalid_request', 'Unknown token.');
  access.revoked = true;
  for (const refresh of context.state.refreshTokens.values()) {
    if (refresh.openId === access.openId) refresh.active = false;
  }
  return { status: 200, json: {} };
};
