import type { Reply } from './http.js';
import { oauthError } from './http.js';
import type { FakeLinkedInApp, Handler, RouteContext } from './route.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function form(context: RouteContext): URLSearchParams {
  return new URLSearchParams(context.body.toString('utf8'));
}

function isFormPost(context: RouteContext): boolean {
  return (context.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/** Why an authorization request is refused outright (an error page, no redirect), or its app. */
function requestProblem(context: RouteContext, params: URLSearchParams): string | FakeLinkedInApp {
  const app = context.apps.get(params.get('client_id') ?? '');
  if (!app) return 'The client_id is not a known application.';
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
  if (app.redirectUris && !app.redirectUris.includes(redirectUri)) {
    return 'The redirect_uri does not match the authorized redirect URLs for this application.';
  }
  return app;
}

const errorPage = (problem: string): Reply => ({
  status: 400,
  html: `<!doctype html><title>Error</title><p>${escapeHtml(problem)}</p>`,
});

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
  const app = requestProblem(context, params);
  if (typeof app === 'string') return errorPage(app);
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
  // All or nothing: one scope the app's products do not grant fails the whole authorization, as
  // LinkedIn's authorization endpoint redirects (error=unauthorized_scope_error).
  const refused = scopes.filter((scope) => !app.scopes.includes(scope));
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
${hidden('client_id', app.clientId)}${hidden('redirect_uri', redirectUri)}${hidden('state', state)}${hidden('scope', scopes.join(' '))}
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
  const app = requestProblem(context, params);
  if (typeof app === 'string') return errorPage(app);
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
  // The decision form is the fake's own, but a hand-made one must not widen the grant either.
  if (scopes.length === 0 || scopes.some((scope) => !app.scopes.includes(scope))) {
    return errorPage('The scope is not authorized for this application.');
  }
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
    clientId: app.clientId,
    member,
    scopes,
    redirectUri,
    expiresAt: context.settings.now() + context.settings.codeLifetimeMs,
    used: false,
  });
  return redirectTo(redirectUri, { code, ...(state && { state }) });
};

/** The app the form's client id and secret authenticate, or the refusal. */
function clientProblem(context: RouteContext, params: URLSearchParams): Reply | FakeLinkedInApp {
  if (!isFormPost(context)) {
    return oauthError(400, 'invalid_request', 'The request must be application/x-www-form-urlencoded.');
  }
  const app = context.apps.get(params.get('client_id') ?? '');
  if (!app || params.get('client_secret') !== app.clientSecret) {
    return oauthError(401, 'invalid_client', 'Client authentication failed.');
  }
  return app;
}

const isApp = (value: Reply | FakeLinkedInApp): value is FakeLinkedInApp => 'clientId' in value;

function issue(context: RouteContext, app: FakeLinkedInApp, member: string, scopes: string[]) {
  const accessToken = context.store.secret(48);
  context.store.accessTokens.set(accessToken, {
    accessToken,
    clientId: app.clientId,
    member,
    scopes,
    expiresAt: context.settings.now() + context.settings.accessTokenSeconds * 1000,
    revoked: false,
  });
  return accessToken;
}

/** An unsigned stand-in for the OpenID ID token LinkedIn adds when `openid` was granted. */
function idToken(context: RouteContext, app: FakeLinkedInApp, member: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(context.settings.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: 'https://www.linkedin.com/oauth', aud: app.clientId, sub: member, iat: now, exp: now + 3600 })}.`;
}

/**
 * POST /oauth/v2/accessToken: the code grant (codes single-use, bound to their redirect URI) and,
 * for an app approved for it, the refresh grant (the refresh token keeps its first expiry).
 */
export const accessToken: Handler<RouteContext> = (context) => {
  const params = form(context);
  const app = clientProblem(context, params);
  if (!isApp(app)) return app;
  const now = context.settings.now();
  const grantType = params.get('grant_type');
  if (grantType === 'authorization_code') {
    const code = context.store.codes.get(params.get('code') ?? '');
    if (!code || code.used || code.expiresAt <= now || code.clientId !== app.clientId) {
      return oauthError(400, 'invalid_grant', 'The authorization code is invalid, expired or already used.');
    }
    if (code.redirectUri !== params.get('redirect_uri')) {
      code.used = true;
      return oauthError(400, 'invalid_grant', 'The redirect_uri does not match the authorization request.');
    }
    code.used = true;
    const answer: Record<string, unknown> = {
      access_token: issue(context, app, code.member, code.scopes),
      expires_in: context.settings.accessTokenSeconds,
      // LinkedIn lists granted scopes comma-separated.
      scope: code.scopes.join(','),
      token_type: 'Bearer',
      ...(code.scopes.includes('openid') && { id_token: idToken(context, app, code.member) }),
    };
    if (app.issueRefreshTokens) {
      const refreshToken = context.store.secret(48);
      context.store.refreshTokens.set(refreshToken, {
        refreshToken,
        clientId: app.clientId,
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
    if (
      !app.issueRefreshTokens ||
      !grant ||
      grant.clientId !== app.clientId ||
      grant.revoked ||
      grant.expiresAt <= now
    ) {
      return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    }
    return {
      status: 200,
      json: {
        access_token: issue(context, app, grant.member, grant.scopes),
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
  const app = clientProblem(context, params);
  if (!isApp(app)) return app;
  const token = params.get('token') ?? '';
  // Only the app a token was issued to can revoke it; another app's is left as it is.
  const access = context.store.accessTokens.get(token);
  if (access?.clientId === app.clientId) access.revoked = true;
  const refresh = context.store.refreshTokens.get(token);
  if (refresh?.clientId === app.clientId) refresh.revoked = true;
  return { status: 200 };
};
