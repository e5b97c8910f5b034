import { createHash } from 'node:crypto';
import type { Reply } from '../shared/http.js';
import type { Handler, RouteContext } from './context.js';
import { checkDpop } from './dpop-check.js';
import { verifyEs256 } from './jwt.js';
import type { FakeSession } from './store.js';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const SUPPORTED_SCOPES = ['atproto', 'transition:generic', 'transition:chat.bsky'];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const oauthError = (status: number, error: string, description: string): Reply => ({
  status,
  json: { error, error_description: description },
});
const errorPage = (message: string): Reply => ({
  status: 400,
  html: `<!doctype html><title>Error</title><p>${escapeHtml(message)}</p>`,
});

/** GET /.well-known/oauth-authorization-server (the entryway's metadata, atproto profile). */
export const authServerMetadata: Handler = ({ baseUrl }) => ({
  status: 200,
  json: {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}/oauth/authorize`,
    token_endpoint: `${baseUrl}/oauth/token`,
    pushed_authorization_request_endpoint: `${baseUrl}/oauth/par`,
    revocation_endpoint: `${baseUrl}/oauth/revoke`,
    require_pushed_authorization_requests: true,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['ES256'],
    dpop_signing_alg_values_supported: ['ES256'],
    scopes_supported: SUPPORTED_SCOPES,
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  },
});

/** GET /.well-known/oauth-protected-resource (the PDS names its authorization server). */
export const protectedResource: Handler = ({ baseUrl }) => ({
  status: 200,
  json: { resource: baseUrl, authorization_servers: [baseUrl] },
});

/** GET /plc/{did}: the PLC directory's DID document, pointing at this fake as the PDS. */
export const plcDocument: Handler = ({ store, url, baseUrl }) => {
  const did = decodeURIComponent(url.pathname.slice('/plc/'.length));
  const user = store.users.get(did);
  if (!user) return { status: 404, json: { message: `DID not registered: ${did}` } };
  return {
    status: 200,
    json: {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: did,
      alsoKnownAs: [`at://${user.handle}`],
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: baseUrl }],
    },
  };
};

/** private_key_jwt (RFC 7523) as the atproto profile wants it: ES256, iss = sub = client_id, aud = issuer. */
function clientProblem(context: RouteContext): Reply | undefined {
  const { fields, app, store, baseUrl } = context;
  if (fields.get('client_id') !== app.clientId) return oauthError(401, 'invalid_client', 'Unknown client');
  if (fields.get('client_assertion_type') !== ASSERTION_TYPE)
    return oauthError(401, 'invalid_client', 'Client authentication required');
  const assertion = verifyEs256(fields.get('client_assertion') ?? '', app.publicJwk);
  const claims = assertion?.claims;
  const now = context.settings.now() / 1000;
  if (
    !claims ||
    claims.iss !== app.clientId ||
    claims.sub !== app.clientId ||
    claims.aud !== baseUrl ||
    typeof claims.exp !== 'number' ||
    claims.exp < now ||
    typeof claims.jti !== 'string' ||
    store.usedJtis.has(`client:${claims.jti}`)
  ) {
    return oauthError(401, 'invalid_client', 'Invalid client assertion');
  }
  store.usedJtis.add(`client:${claims.jti}`);
  return undefined;
}

/** POST /oauth/par: the only way this server takes an authorization request (PKCE S256 and DPoP required). */
export const pushAuthorization: Handler = (context) => {
  const dpop = checkDpop(context, 'authServer');
  if ('refusal' in dpop) return dpop.refusal;
  const problem = clientProblem(context);
  if (problem) return problem;
  const { fields, store, settings } = context;
  if (fields.get('response_type') !== 'code')
    return oauthError(400, 'invalid_request', 'response_type must be code');
  if (fields.get('code_challenge_method') !== 'S256' || !fields.get('code_challenge')) {
    return oauthError(400, 'invalid_request', 'PKCE S256 is required');
  }
  const scopes = (fields.get('scope') ?? '').split(' ').filter(Boolean);
  if (!scopes.includes('atproto') || scopes.some((scope) => !SUPPORTED_SCOPES.includes(scope))) {
    return oauthError(400, 'invalid_scope', 'The atproto scope is required');
  }
  const redirectUri = fields.get('redirect_uri') ?? '';
  if (!URL.canParse(redirectUri) || !['http:', 'https:'].includes(new URL(redirectUri).protocol)) {
    return oauthError(400, 'invalid_request', 'Invalid redirect_uri');
  }
  const requestUri = `urn:ietf:params:oauth:request_uri:req-${store.secret(16)}`;
  store.pushed.set(requestUri, {
    params: new URLSearchParams(fields),
    jkt: dpop.jkt,
    expiresAt: settings.now() + 5 * 60_000,
  });
  return { status: 201, json: { request_uri: requestUri, expires_in: 300 } };
};

/** GET /oauth/authorize?client_id&request_uri: the consent page, for a pushed request only. */
export const authorizePage: Handler = ({ url, store, app, settings }) => {
  const requestUri = url.searchParams.get('request_uri') ?? '';
  const pushed = store.pushed.get(requestUri);
  if (url.searchParams.get('client_id') !== app.clientId || !pushed || pushed.expiresAt < settings.now()) {
    return errorPage('This authorization request is unknown or expired.');
  }
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const users = [...store.users.values()]
    .map((user) => `<option value="${escapeHtml(user.did)}">@${escapeHtml(user.handle)}</option>`)
    .join('');
  return {
    status: 200,
    html: `<!doctype html>
<html><head><title>Bluesky (fake): authorize</title></head>
<body>
<h1>Grant this app access to your Bluesky account?</h1>
<p>It asks for: ${escapeHtml(pushed.params.get('scope') ?? '')}</p>
<form method="post" action="/oauth/authorize/decision">
${hidden('client_id', app.clientId)}${hidden('request_uri', requestUri)}
<label>Signed in as <select name="did">${users}</select></label>
<button type="submit" name="decision" value="approve">Accept</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body></html>`,
  };
};

function redirectTo(redirectUri: string, params: Record<string, string>): Reply {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return { status: 302, location: target.toString() };
}

/** POST /oauth/authorize/decision: back to the redirect with `code`, `state` and `iss`, or access_denied. */
export const authorizeDecision: Handler = (context) => {
  const { fields, store, app, settings, baseUrl } = context;
  const requestUri = fields.get('request_uri') ?? '';
  const pushed = store.pushed.get(requestUri);
  if (fields.get('client_id') !== app.clientId || !pushed) return errorPage('Unknown authorization request.');
  store.pushed.delete(requestUri);
  const redirectUri = pushed.params.get('redirect_uri') ?? '';
  const state = pushed.params.get('state') ?? '';
  if (fields.get('decision') !== 'approve') {
    return redirectTo(redirectUri, {
      error: 'access_denied',
      error_description: 'Access denied',
      state,
      iss: baseUrl,
    });
  }
  const did = fields.get('did') ?? [...store.users.keys()][0] ?? '';
  if (!store.users.has(did)) return errorPage('Unknown account.');
  const code = `cod-${store.secret(24)}`;
  store.codes.set(code, {
    did,
    params: pushed.params,
    jkt: pushed.jkt,
    expiresAt: settings.now() + settings.codeLifetimeMs,
    used: false,
  });
  return redirectTo(redirectUri, { code, state, iss: baseUrl });
};

function tokenAnswer(context: RouteContext, session: FakeSession): Reply {
  return {
    status: 200,
    json: {
      access_token: session.accessToken,
      token_type: 'DPoP',
      refresh_token: session.refreshToken,
      expires_in: context.settings.accessTokenSeconds,
      scope: session.scope,
      sub: session.did,
    },
  };
}

function newSession(context: RouteContext, did: string, scope: string, jkt: string): FakeSession {
  const session: FakeSession = {
    did,
    scope,
    jkt,
    accessToken: `at-${context.store.secret(32)}`,
    accessExpiresAt: context.settings.now() + context.settings.accessTokenSeconds * 1000,
    refreshToken: `ref-${context.store.secret(32)}`,
    refreshUsed: false,
  };
  context.store.sessions.push(session);
  return session;
}

/** POST /oauth/token: the code (PKCE and the PAR's DPoP key checked) or a single-use refresh token. */
export const token: Handler = (context) => {
  const dpop = checkDpop(context, 'authServer');
  if ('refusal' in dpop) return dpop.refusal;
  const problem = clientProblem(context);
  if (problem) return problem;
  const { fields, store, settings } = context;
  const grantType = fields.get('grant_type');
  if (grantType === 'authorization_code') {
    const code = store.codes.get(fields.get('code') ?? '');
    if (!code || code.used || code.expiresAt < settings.now())
      return oauthError(400, 'invalid_grant', 'Invalid code');
    code.used = true;
    const challenge = createHash('sha256')
      .update(fields.get('code_verifier') ?? '')
      .digest('base64url');
    if (challenge !== code.params.get('code_challenge'))
      return oauthError(400, 'invalid_grant', 'Invalid code_verifier');
    if (fields.get('redirect_uri') !== code.params.get('redirect_uri'))
      return oauthError(400, 'invalid_grant', 'Invalid redirect_uri');
    if (dpop.jkt !== code.jkt) return oauthError(400, 'invalid_dpop_key_binding', 'DPoP key mismatch');
    return tokenAnswer(
      context,
      newSession(context, code.did, code.params.get('scope') ?? 'atproto', dpop.jkt),
    );
  }
  if (grantType === 'refresh_token') {
    const session = store.sessionByRefresh(fields.get('refresh_token') ?? '');
    if (!session || session.refreshUsed) return oauthError(400, 'invalid_grant', 'Invalid refresh token');
    if (session.jkt !== dpop.jkt) return oauthError(400, 'invalid_grant', 'DPoP key mismatch');
    session.refreshUsed = true;
    session.accessExpiresAt = 0;
    return tokenAnswer(context, newSession(context, session.did, session.scope, session.jkt));
  }
  return oauthError(400, 'unsupported_grant_type', 'Unsupported grant_type');
};

/** POST /oauth/revoke: the session of the token ends (its access and refresh tokens both). */
export const revoke: Handler = (context) => {
  const problem = clientProblem(context);
  if (problem) return problem;
  const value = context.fields.get('token') ?? '';
  const session = context.store.sessionByRefresh(value) ?? context.store.sessionByAccess(value);
  if (session) {
    session.refreshUsed = true;
    session.accessExpiresAt = 0;
  }
  return { status: 200, json: {} };
};
