import type { Reply } from './http.js';
import { oauthError } from './http.js';
import type { Handler, RouteContext } from './route.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function form(context: RouteContext): URLSearchParams {
  return new URLSearchParams(context.body.toString('utf8'));
}

function isFormPost(context: RouteContext): boolean {
  return (context.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/** Why an authorization request is refused outright (an error page, no redirect), or undefined. */
function requestProblem(context: RouteContext, params: URLSearchParams): string | undefined {
  if (params.get('client_id') !== context.app.clientId) return 'The client_id is not a known application.';
  const redirectUri = params.get('redirect_uri') ?? '';
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return 'The redirect_uri must be an absolute URL.';
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || redirectUri.includes('#')) {
    return 'The redirect_uri must be an absolute http(s) URL without a fragment.';
  }
  if (context.app.redirectUris && !context.app.redirectUris.includes(redirectUri)) {
    return 'The redirect_uri does not match the authorized redirect URLs for this application.';
  }
  return undefined;
}

function redirectTo(redirectUri: string, params: Record<string, string>): Reply {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return { status: 302, location: target.toString() };
}

/**
 * GET /oauth/v2/authorization: the consent page, with the app's request checked as LinkedIn does
 * (known client, absolute redirect without a fragment, response_type=code, scopes the app's
 * products allow: all or nothing). The member signed in is picked on the page (the first known by
 * default); Allow and Cancel post the decision back.
 */
export const authorizationPage: Handler<RouteContext> = (context) => {
  const params = context.url.searchParams;
  const problem = requestProblem(context, params);
  if (problem)
    return { status: 400, html: `<!doctype html><title>Error</title><p>${escapeHtml(problem)}</p>` };
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state') ?? '';
  if (params.get('response_type') !== 'code') {
    return redirectTo(redirectUri, {
      error: 'unsupported_response_type',
      error_description: 'Only response_type=code is supported.',
      ...(state && { state }),
    });
  }
  const scopes = (params.get('scope') ?? '').split(/[\s,]+/).filter(Boolean);
  const refused = scopes.filter((scope) => !context.app.scopes.includes(scope));
  if (scopes.length === 0 || refused.length > 0) {
    return redirectTo(redirectUri, {
      error: 'unauthorized_scope_error',
      error_description: `Scope "${refused[0] ?? ''}" is not authorized for your application`,
      ...(state && { state }),
    });
  }
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const members = [...context.store.members.values()]
    .map((member) => `<option value="${escapeHtml(member.sub)}">${escapeHtml(member.name)}</option>`)
    .join('');
  return {
    status: 200,
    html: `<!doctype html>
<html><head><title>LinkedIn (fake): allow access</title></head>
<body>
<h1>Allow this app to use your LinkedIn account?</h1>
<p>It asks for: ${scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="/oauth/v2/authorization/decision">
${hidden('client_id', context.app.clientId)}${hidden('redirect_uri', redirectUri)}${hidden('state', state)}${hidden('scope', scopes.join(' '))}
<label>Signed in as <select name="member">${members}</select></label>
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form>
</body></html>`,
  };
};

/** POST /oauth/v2/authorization/decision: Allow → a single-use code; Cancel → access_denied. */
export const authorizationDecision: Handler<RouteContext> = (context) => {
  const params = form(context);
  const problem = requestProblem(context, params);
  if (problem)
    return { status: 400, html: `<!doctype html><title>Error</title><p>${escapeHtml(problem)}</p>` };
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state') ?? '';
  if (params.get('decision') !== 'approve') {
    return redirectTo(redirectUri, {
      error: 'access_denied',
      error_description: 'The member refused to authorize the application.',
      ...(state && { state }),
    });
  }
  const member = params.get('member') ?? [...context.store.members.keys()][0] ?? '';
  if (!context.store.members.has(member)) {
    return { status: 400, html: '<!doctype html><title>Error</title><p>Unknown member.</p>' };
  }
  const code = context.store.secret(32);
  context.store.codes.set(code, {
    code,
    member,
    scopes: (params.get('scope') ?? '').split(' ').filter(Boolean),
    redirectUri,
    expiresAt: context.settings.now() + context.settings.codeLifetimeMs,
    used: false,
  });
  return redirectTo(redirectUri, { code, ...(state && { state }) });
};

function clientProblem(context: RouteContext, params: URLSearchParams): Reply | undefined {
  if (!isFormPost(context)) {
    return oauthError(400, 'invalid_request', 'The request must be application/x-www-form-urlencoded.');
  }
  if (
    params.get('client_id') !== context.app.clientId ||
    params.get('client_secret') !== context.app.clientSecret
  ) {
    return oauthError(401, 'invalid_client', 'Client authentication failed.');
  }
  return undefined;
}

function issue(context: RouteContext, member: string, scopes: string[]) {
  const accessToken = context.store.secret(48);
  context.store.accessTokens.set(accessToken, {
    accessToken,
    member,
    scopes,
    expiresAt: context.settings.now() + context.settings.accessTokenSeconds * 1000,
    revoked: false,
  });
  return accessToken;
}

/** An unsigned stand-in for the OpenID ID token LinkedIn adds when `openid` was granted. */
function idToken(context: RouteContext, member: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(context.settings.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: 'https://www.linkedin.com/oauth', aud: context.app.clientId, sub: member, iat: now, exp: now + 3600 })}.`;
}

/**
 * POST /oauth/v2/accessToken: the code grant (codes single-use, bound to their redirect URI) and,
 * for an app approved for it, the refresh grant (the refresh token keeps its first expiry).
 */
export const accessToken: Handler<RouteContext> = (context) => {
  const params = form(context);
  const problem = clientProblem(context, params);
  if (problem) return problem;
  const now = context.settings.now();
  const grantType = params.get('grant_type');
  if (grantType === 'authorization_code') {
    const code = context.store.codes.get(params.get('code') ?? '');
    if (!code || code.used || code.expiresAt <= now) {
      return oauthError(400, 'invalid_grant', 'The authorization code is invalid, expired or already used.');
    }
    if (code.redirectUri !== params.get('redirect_uri')) {
      code.used = true;
      return oauthError(400, 'invalid_grant', 'The redirect_uri does not match the authorization request.');
    }
    code.used = true;
    const answer: Record<string, unknown> = {
      access_token: issue(context, code.member, code.scopes),
      expires_in: context.settings.accessTokenSeconds,
      // LinkedIn lists granted scopes comma-separated.
      scope: code.scopes.join(','),
      token_type: 'Bearer',
      ...(code.scopes.includes('openid') && { id_token: idToken(context, code.member) }),
    };
    if (context.app.issueRefreshTokens) {
      const refreshToken = context.store.secret(48);
      context.store.refreshTokens.set(refreshToken, {
        refreshToken,
        member: code.member,
        scopes: code.scopes,
        expiresAt: now + context.settings.refreshTokenSeconds * 1000,
        revoked: false,
      });
      answer.refresh_token = refreshToken;
      answer.refresh_token_expires_in = context.settings.refreshTokenSeconds;
    }
    return { status: 200, json: answer };
  }
  if (grantType === 'refresh_token') {
    const grant = context.store.refreshTokens.get(params.get('refresh_token') ?? '');
    if (!context.app.issueRefreshTokens || !grant || grant.revoked || grant.expiresAt <= now) {
      return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    }
    return {
      status: 200,
      json: {
        access_token: issue(context, grant.member, grant.scopes),
        expires_in: context.settings.accessTokenSeconds,
        refresh_token: grant.refreshToken,
        refresh_token_expires_in: Math.floor((grant.expiresAt - now) / 1000),
        scope: grant.scopes.join(','),
      },
    };
  }
  return oauthError(400, 'unsupported_grant_type', 'The grant_type is not supported.');
};

/** POST /oauth/v2/revoke: the access token stops working; an unknown one is not an error. */
export const revoke: Handler<RouteContext> = (context) => {
  const params = form(context);
  const problem = clientProblem(context, params);
  if (problem) return problem;
  const token = params.get('token') ?? '';
  const access = context.store.accessTokens.get(token);
  if (access) access.revoked = true;
  const refresh = context.store.refreshTokens.get(token);
  if (refresh) refresh.revoked = true;
  return { status: 200 };
};
