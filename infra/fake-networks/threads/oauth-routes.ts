import { namedToken } from '../shared/graph-auth.js';
import {
  redirectProblem as checkRedirect,
  consentErrorPage,
  consentPage,
  type RedirectRefusals,
  redirectTo,
} from '../shared/oauth-consent.js';
import { issueUserToken } from '../shared/user-tokens.js';
import { ALL_SCOPES } from './control.js';
import { graphError, type Reply, replies } from './http.js';
import type { Handler, RouteContext } from './route.js';
import type { FakeToken } from './store.js';

const refusals: RedirectRefusals = {
  // Meta's Facebook app id instead of the Threads app id is refused this way (threads.md §1).
  unknownClient: 'No app ID was provided in the request.',
  unregisteredRedirect: 'The redirect_uri does not match a valid OAuth redirect URI of the app.',
};
const redirectProblem = (context: RouteContext, params: URLSearchParams) =>
  checkRedirect(context.app, params, refusals);

/**
 * GET /oauth/authorize (threads.net's consent window): client_id, redirect_uri, scope and
 * response_type=code required, state optional; scopes comma- or space-separated, threads_basic
 * among them (threads.md §3). Then a page with the profile to sign in as, Allow and Cancel.
 */
export const authorizePage: Handler<RouteContext> = (context) => {
  const params = context.url.searchParams;
  const problem = redirectProblem(context, params);
  if (problem) return consentErrorPage(problem);
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state') ?? '';
  if (params.get('response_type') !== 'code') {
    return redirectTo(redirectUri, {
      error: 'invalid_request',
      error_reason: 'response_type',
      ...(state && { state }),
    });
  }
  const scopes = (params.get('scope') ?? '').split(/[\s,]+/).filter(Boolean);
  if (!scopes.includes('threads_basic') || scopes.some((scope) => !ALL_SCOPES.includes(scope))) {
    return redirectTo(redirectUri, { error: 'invalid_scope', ...(state && { state }) });
  }
  return consentPage({
    title: 'Threads (fake): allow access',
    heading: 'Allow this app to access your Threads profile?',
    scopes,
    action: '/oauth/authorize/decision',
    clientId: context.app.clientId,
    redirectUri,
    state,
    chooserLabel: 'Signed in as',
    choices: [...context.store.users.values()].map((user) => ({
      value: user.userId,
      label: `@${user.username}`,
    })),
    allowLabel: 'Allow',
  });
};

/** POST /oauth/authorize/decision: Allow → ?code=…&state=…#_; Cancel → access_denied. */
export const authorizeDecision: Handler<RouteContext> = (context) => {
  const params = new URLSearchParams(context.body.toString('utf8'));
  const problem = redirectProblem(context, params);
  if (problem) return consentErrorPage(problem);
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state') ?? '';
  if (params.get('decision') !== 'approve') {
    return redirectTo(redirectUri, {
      error: 'access_denied',
      error_reason: 'user_denied',
      error_description: 'Permissions error',
      ...(state && { state }),
    });
  }
  const userId = params.get('user') ?? [...context.store.users.keys()][0] ?? '';
  if (!context.store.users.has(userId)) return consentErrorPage('Unknown profile.');
  const code = context.store.secret(32);
  // The person may leave out what the app asked beyond threads_basic (a test posts `decline=…`).
  const declined = (params.get('decline') ?? '').split(',').filter((scope) => scope !== 'threads_basic');
  context.store.codes.set(code, {
    code,
    userId,
    scopes: (params.get('scope') ?? '').split(',').filter((scope) => scope && !declined.includes(scope)),
    redirectUri,
    expiresAt: context.settings.now() + context.settings.codeLifetimeMs,
    used: false,
  });
  // Threads sends the code with a trailing `#_` (threads.md §3 step 2), which a browser never sends on.
  return redirectTo(redirectUri, { code, ...(state && { state }) }, '#_');
};

/** POST /oauth/access_token (graph.threads.net): a code → a short-lived token (1 hour) and the user id. */
export const codeExchange: Handler<RouteContext> = (context) => {
  const form = context.fields;
  if (form.get('client_id') !== context.app.clientId)
    return graphError(101, 'Error validating application. Invalid application ID.');
  if (form.get('client_secret') !== context.app.clientSecret)
    return graphError(101, 'Error validating client secret.');
  if (form.get('grant_type') !== 'authorization_code') return replies.badParameter('Unsupported grant_type.');
  const code = context.store.codes.get(form.get('code') ?? '');
  if (!code || code.used || code.expiresAt <= context.settings.now()) {
    return graphError(100, 'This authorization code has been used or has expired.', {
      subcode: 36007,
      type: 'OAuthException',
    });
  }
  code.used = true;
  if (code.redirectUri !== form.get('redirect_uri')) {
    return graphError(
      100,
      'Error validating verification code. Please make sure your redirect_uri is identical.',
      {
        subcode: 36008,
        type: 'OAuthException',
      },
    );
  }
  const token = issueUserToken(context, code.userId, code.scopes, 'short');
  return { status: 200, json: { access_token: token.token, user_id: Number(code.userId) } };
};

function tokenOf(context: RouteContext): FakeToken | Reply {
  return namedToken(context, replies);
}

/** GET /access_token?grant_type=th_exchange_token&client_secret&access_token: short → long-lived (60 days). */
export const longLivedExchange: Handler<RouteContext> = (context) => {
  if (context.fields.get('grant_type') !== 'th_exchange_token')
    return replies.badParameter('Invalid grant_type.');
  if (context.fields.get('client_secret') !== context.app.clientSecret)
    return graphError(101, 'Error validating client secret.');
  const short = tokenOf(context);
  if ('status' in short) return short;
  if (short.kind !== 'short') return replies.badParameter('The token is not a short-lived token.');
  if (!short.scopes.includes('threads_basic'))
    return graphError(10, 'The threads_basic permission is required.');
  const long = issueUserToken(context, short.userId, short.scopes, 'long');
  return {
    status: 200,
    json: {
      access_token: long.token,
      token_type: 'bearer',
      expires_in: context.settings.longLivedSeconds - 56,
    },
  };
};

/**
 * GET /refresh_access_token?grant_type=th_refresh_token&access_token: a long-lived token at least
 * 24 hours old and unexpired → a new one for 60 days (the old one keeps working until it expires).
 */
export const refresh: Handler<RouteContext> = (context) => {
  if (context.fields.get('grant_type') !== 'th_refresh_token')
    return replies.badParameter('Invalid grant_type.');
  const token = tokenOf(context);
  if ('status' in token) return token;
  if (token.kind !== 'long') return replies.badParameter('Only a long-lived token can be refreshed.');
  if (context.settings.now() - token.issuedAt < context.settings.refreshMinAgeMs) {
    return replies.badParameter('The access token must be at least 24 hours old to be refreshed.');
  }
  const renewed = issueUserToken(context, token.userId, token.scopes, 'long');
  return {
    status: 200,
    json: {
      access_token: renewed.token,
      token_type: 'bearer',
      expires_in: context.settings.longLivedSeconds,
    },
  };
};
