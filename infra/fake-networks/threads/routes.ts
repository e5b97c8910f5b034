import { findRoute as findRouteIn, graphPath, type PermissionedRoute } from '../shared/routing.js';
import { createContainer } from './container-routes.js';
import type { FakeThreadsEndpoint } from './control.js';
import { authenticate, getObject, listPosts, me, publish, publishingLimit } from './graph-routes.js';
import { graphError, type Reply } from './http.js';
import { accountInsights, mediaInsights } from './insights-routes.js';
import {
  authorizeDecision,
  authorizePage,
  codeExchange,
  longLivedExchange,
  refresh,
} from './oauth-routes.js';
import type { ApiContext, RouteContext } from './route.js';

export type Route = PermissionedRoute<FakeThreadsEndpoint, RouteContext, ApiContext>;

const USER = '(?<user>me|[0-9]+)';
/**
 * What each route's token must hold (threads.md §3 "Permissions"): every call `threads_basic`;
 * containers, publishing and the limit `threads_content_publish` too; reading replies
 * `threads_read_replies` (a reply's container also needs `threads_manage_replies`, checked there).
 */
const BASIC = ['threads_basic'] as const;
const PUBLISH = ['threads_basic', 'threads_content_publish'] as const;
const READ_REPLIES = ['threads_basic', 'threads_read_replies'] as const;
const INSIGHTS = ['threads_basic', 'threads_manage_insights'] as const;

export const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: /^\/oauth\/authorize$/,
    endpoint: 'authorize',
    access: 'open',
    handler: authorizePage,
  },
  {
    method: 'POST',
    pattern: /^\/oauth\/authorize\/decision$/,
    endpoint: 'authorize',
    access: 'open',
    handler: authorizeDecision,
  },
  {
    method: 'POST',
    pattern: /^\/oauth\/access_token$/,
    endpoint: 'oauth.access_token',
    access: 'open',
    handler: codeExchange,
  },
  {
    method: 'GET',
    pattern: /^\/access_token$/,
    endpoint: 'access_token',
    access: 'open',
    handler: longLivedExchange,
  },
  {
    method: 'GET',
    pattern: /^\/refresh_access_token$/,
    endpoint: 'refresh_access_token',
    access: 'open',
    handler: refresh,
  },
  {
    method: 'GET',
    pattern: graphPath('/me'),
    endpoint: 'me',
    access: 'token',
    permissions: BASIC,
    handler: me,
  },
  {
    method: 'POST',
    pattern: graphPath(`/${USER}/threads`),
    endpoint: 'threads.create',
    access: 'token',
    permissions: PUBLISH,
    handler: createContainer,
  },
  {
    method: 'GET',
    pattern: graphPath(`/${USER}/threads`),
    endpoint: 'threads.list',
    access: 'token',
    permissions: BASIC,
    handler: listPosts('threads'),
  },
  {
    method: 'GET',
    pattern: graphPath(`/${USER}/replies`),
    endpoint: 'replies.list',
    access: 'token',
    permissions: READ_REPLIES,
    handler: listPosts('replies'),
  },
  {
    method: 'POST',
    pattern: graphPath(`/${USER}/threads_publish`),
    endpoint: 'threads_publish',
    access: 'token',
    permissions: PUBLISH,
    handler: publish,
  },
  {
    method: 'GET',
    pattern: graphPath(`/${USER}/threads_publishing_limit`),
    endpoint: 'threads_publishing_limit',
    access: 'token',
    permissions: PUBLISH,
    handler: publishingLimit,
  },
  {
    method: 'GET',
    pattern: graphPath('/(?<id>[0-9]+)/insights'),
    endpoint: 'media.insights',
    access: 'token',
    permissions: INSIGHTS,
    handler: mediaInsights,
  },
  {
    method: 'GET',
    pattern: graphPath(`/${USER}/threads_insights`),
    endpoint: 'threads_insights',
    access: 'token',
    permissions: INSIGHTS,
    handler: accountInsights,
  },
  {
    method: 'GET',
    pattern: graphPath('/(?<id>[0-9]+)'),
    endpoint: 'object.get',
    access: 'token',
    permissions: BASIC,
    handler: getObject,
  },
];

export const findRoute = (method: string, url: URL) => findRouteIn(ROUTES, method, url);

export async function run(route: Route, context: RouteContext): Promise<Reply> {
  if (route.access === 'open') return route.handler(context);
  const authenticated = authenticate(context);
  if ('status' in authenticated) return authenticated;
  const missing = route.permissions.filter((permission) => !authenticated.token.scopes.includes(permission));
  if (missing.length > 0)
    return graphError(10, `Application does not have permission for this action (${missing.join(', ')}).`);
  return route.handler(authenticated);
}
