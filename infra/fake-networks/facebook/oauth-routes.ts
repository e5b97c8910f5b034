import {
  redirectProblem as checkRedirect,
  consentErrorPage,
  consentPage,
  escapeHtml,
  type RedirectRefusals,
  redirectTo,
} from '../shared/oauth-consent.js';
import { FACEBOOK_PERMISSIONS } from './control.js';
import { graphError, replies } from './http.js';
import type { ApiContext, Handler, RouteContext } from './route.js';
import type { FakeToken } from './store.js';

const refusals: RedirectRefusals = {
  unknownClient: 'Invalid App ID.',
  unregisteredRedirect:
    "URL blocked: this redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings.",
};
const redirectProblem = (context: RouteContext, params: URLSearchParams) =>
  checkRedirect(context.app, params, refusals);

/**
 * GET /{v}/dialog/oauth (www.facebook.com's Login dialog): the app, the redirect and the scopes
 * checked as Meta does (comma-separated, known permissions only), then a page with the person to
 * sign in as, the Pages they may share with the app (all ticked), Allow and Cancel.
 */
export const dialogPage: Handler<RouteContext> = (context) => {
  const params = context.url.searchParams;
  const problem = redirectProblem(context, params);
  if (problem) return consentErrorPage(problem);
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state') ?? '';
  if ((params.get('response_type') ?? 'code') !== 'code') {
    return redirectTo(redirectUri, { error: 'invalid_request', ...(state && { state }) });
  }
  const scopes = (params.get('scope') ?? '')
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  if (scopes.some((scope) => !FACEBOOK_PERMISSIONS.includes(scope))) {
    return consentErrorPage(
      `Invalid Scopes: ${scopes.filter((scope) => !FACEBOOK_PERMISSIONS.includes(scope)).join(', ')}.`,
    );
  }
  const users = [...context.store.users.values()];
  const pages = users
    .flatMap((user) =>
      user.pages.map(
        (page) =>
          `<label><input type="checkbox" name="page" value="${escapeHtml(page.pageId)}" checked> ${escapeHtml(page.name)} (${escapeHtml(user.name)})</label>`,
      ),
    )
    .join('<br>');
  return consentPage({
    title: 'Facebook (fake): log in with Facebook',
    heading: 'This app would like to manage your Pages',
    scopes,
    action: `/${context.params.version ?? ''}/dialog/oauth/decision`,
    clientId: context.app.clientId,
    redirectUri,
    state,
    chooserLabel: 'Continue as',
    choices: users.map((user) => ({ value: user.userId, label: user.name })),
    extraHtml: `<fieldset><legend>The Pages this app may use (none ticked: all of them)</legend>${pages}</fieldset>`,
    allowLabel: 'Continue',
  });
};

/**
 * POST /{v}/dialog/oauth/decision: Continue → ?code=…; Cancel → error=access_denied. The Pages
 * ticked are the ones the token will list (none ticked, as a form without a browser sends: every
 * Page of the person, the dialog's default). `decline=a,b` leaves permissions out, as a person
 * may untick them.
 */
export const dialogDecision: Handler<RouteContext> = (context) => {
  const params = new URLSearchParams(context.body.toString('utf8'));
  const problem = redirectProblem(context, params);
  if (problem) return consentErrorPage(problem);
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state') ?? '';
  if (params.get('decision') !== 'approve') {
    return redirectTo(redirectUri, {
      error: 'access_denied',
      error_code: '200',
      error_description: 'Permissions error',
      error_reason: 'user_denied',
      ...(state && { state }),
    });
  }
  const userId = params.get('user') ?? [...context.store.users.keys()][0] ?? '';
  const user = context.store.users.get(userId);
  if (!user) return consentErrorPage('Unknown account.');
  const ticked = params.getAll('page');
  const pageIds = user.pages
    .map((page) => page.pageId)
    .filter((pageId) => ticked.length === 0 || ticked.includes(pageId));
  const declined = (params.get('decline') ?? '').split(',');
  const code = context.store.secret(32);
  context.store.codes.set(code, {
    code,
    userId,
    pageIds,
    scopes: ['public_profile', ...(params.get('scope') ?? '').split(',')].filter(
      (scope, index, all) => scope && !declined.includes(scope) && all.indexOf(scope) === index,
    ),
    redirectUri,
    expiresAt: context.settings.now() + context.settings.codeLifetimeMs,
    used: false,
  });
  return redirectTo(redirectUri, { code, ...(state && { state }) });
};

function issue(
  context: RouteContext,
  from: Omit<FakeToken, 'token' | 'issuedAt' | 'revoked' | 'expiresAt'>,
): FakeToken {
  const now = context.settings.now();
  const seconds =
    from.kind === 'short'
      ? context.settings.shortLivedSeconds
      : from.kind === 'long'
        ? context.settings.longLivedSeconds
        : undefined;
  const token: FakeToken = {
    ...from,
    token: context.store.secret(48),
    issuedAt: now,
    ...(seconds !== undefined && { expiresAt: now + seconds * 1000 }),
    revoked: false,
  };
  context.store.tokens.set(token.token, token);
  return token;
}

/**
 * /{v}/oauth/access_token (GET as Meta documents it, or a form POST): a code → a short-lived user
 * token (client_id, client_secret and the same redirect_uri); or `grant_type=fb_exchange_token`:
 * a short-lived user token → a long-lived one (about 60 days).
 */
export const accessToken: Handler<RouteContext> = (context) => {
  const fields = context.fields;
  if (fields.get('client_id') !== context.app.clientId)
    return graphError(101, 'Error validating application. Invalid application ID.');
  if (fields.get('client_secret') !== context.app.clientSecret)
    return graphError(1, 'Error validating client secret.', { status: 400 });
  if (fields.get('grant_type') === 'fb_exchange_token') {
    const short = context.store.tokens.get(fields.get('fb_exchange_token') ?? '');
    if (!short || short.revoked) return replies.invalidToken();
    if (short.expiresAt !== undefined && short.expiresAt <= context.settings.now())
      return replies.expiredToken();
    if (short.kind === 'page') return replies.badParameter('A Page access token cannot be exchanged.');
    const long = issue(context, {
      kind: 'long',
      userId: short.userId,
      pageIds: short.pageIds,
      scopes: short.scopes,
    });
    return {
      status: 200,
      json: { access_token: long.token, token_type: 'bearer', expires_in: context.settings.longLivedSeconds },
    };
  }
  const code = context.store.codes.get(fields.get('code') ?? '');
  if (!code || code.used || code.expiresAt <= context.settings.now()) {
    return graphError(100, 'This authorization code has been used.', { subcode: 36009 });
  }
  code.used = true;
  if (code.redirectUri !== fields.get('redirect_uri')) {
    return graphError(
      100,
      'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      { subcode: 36008 },
    );
  }
  const token = issue(context, {
    kind: 'short',
    userId: code.userId,
    pageIds: code.pageIds,
    scopes: code.scopes,
  });
  return {
    status: 200,
    json: { access_token: token.token, token_type: 'bearer', expires_in: context.settings.shortLivedSeconds },
  };
};

/** GET /{v}/me/permissions with a user token: what the person granted, and declined. */
export const permissions: Handler<ApiContext> = (context) => {
  if (context.token.kind === 'page')
    return graphError(100, '(#100) Tried accessing nonexisting field (permissions) on node type (Page)');
  const asked = FACEBOOK_PERMISSIONS;
  return {
    status: 200,
    json: {
      data: asked
        .filter((permission) => context.token.scopes.includes(permission))
        .map((permission) => ({ permission, status: 'granted' })),
    },
  };
};

/**
 * GET /{v}/me/accounts with a user token: the Pages the person shared with the app, each with a
 * Page token (no expiry when the user token is long-lived, an hour otherwise) and their tasks.
 * Needs `pages_show_list`; pages through `after` cursors `limit` at a time.
 */
export const accounts: Handler<ApiContext> = (context) => {
  const held = context.token;
  if (held.kind === 'page')
    return graphError(100, '(#100) Tried accessing nonexisting field (accounts) on node type (Page)');
  if (!held.scopes.includes('pages_show_list')) return replies.noPermission('pages_show_list');
  const user = context.store.users.get(held.userId);
  const pages = (user?.pages ?? []).filter((page) => held.pageIds.includes(page.pageId));
  const limit = Math.max(1, Math.min(100, Number(context.fields.get('limit') ?? 25) || 25));
  const start = Number(context.fields.get('after') ?? 0) || 0;
  const slice = pages.slice(start, start + limit);
  const data = slice.map((page) => {
    const pageToken = issue(context, {
      kind: 'page',
      userId: held.userId,
      pageId: page.pageId,
      pageIds: [page.pageId],
      scopes: held.scopes,
    });
    if (held.kind === 'short') pageToken.expiresAt = context.settings.now() + 3600 * 1000;
    return {
      id: page.pageId,
      name: page.name,
      ...(page.username && { username: page.username }),
      access_token: pageToken.token,
      category: 'Brand',
      tasks: page.tasks,
      ...(page.pictureUrl && { picture: { data: { url: page.pictureUrl, is_silhouette: false } } }),
    };
  });
  const more = start + limit < pages.length;
  return {
    status: 200,
    json: {
      data,
      paging: {
        cursors: { before: String(start), after: String(start + slice.length) },
        ...(more && {
          next: `${context.baseUrl}${context.url.pathname}?after=${start + slice.length}&limit=${limit}`,
        }),
      },
    },
  };
};

/** GET /{v}/me: the person with a user token, the Page with a Page token. */
export const me: Handler<ApiContext> = (context) => {
  const held = context.token;
  if (held.kind === 'page' && held.pageId) {
    const owner = context.store.pageOf(held.pageId);
    if (!owner) return replies.invalidToken();
    const { page } = owner;
    return {
      status: 200,
      json: {
        id: page.pageId,
        name: page.name,
        ...(page.username && { username: page.username }),
        ...(page.pictureUrl && { picture: { data: { url: page.pictureUrl } } }),
      },
    };
  }
  const user = context.store.users.get(held.userId);
  if (!user) return replies.invalidToken();
  return { status: 200, json: { id: user.userId, name: user.name } };
};
