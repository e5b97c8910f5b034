import { findRoute as findRouteIn, graphPath, type PermissionedRoute } from '../shared/routing.js';
import { createComment, listComments } from './comment-routes.js';
import type { FakeInstagramEndpoint } from './control.js';
import {
  authenticate,
  createMedia,
  getObject,
  listMedia,
  me,
  mediaPublish,
  publishingLimit,
} from './graph-routes.js';
import { graphError, type Reply } from './http.js';
import { mediaInsights } from './insights-routes.js';
import {
  authorizeDecision,
  authorizePage,
  codeExchange,
  longLivedExchange,
  refresh,
} from './oauth-routes.js';
import type { ApiContext, RouteContext } from './route.js';
import { throttled } from './throttle.js';

export type Route = PermissionedRoute<FakeInstagramEndpoint, RouteContext, ApiContext>;

const USER = '(?<user>me|[0-9]+)';
/**
 * What each route's token must hold, from each endpoint reference's "Instagram API with Instagram Login"
 * requirements: every read needs `instagram_business_basic`; containers, publishing and the
 * publishing limit need `instagram_business_content_publish` too; media insights need
 * `instagram_business_manage_insights` too.
 */
const BASIC = ['instagram_business_basic'] as const;
const PUBLISH = ['instagram_business_basic', 'instagram_business_content_publish'] as const;
const INSIGHTS = ['instagram_business_basic', 'instagram_business_manage_insights'] as const;
/** Creating and reading comments (IG Media Comments reference, Instagram Login). */
const COMMENTS = ['instagram_business_basic', 'instagram_business_manage_comments'] as const;

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
    pattern: graphPath(`/${USER}/media`),
    endpoint: 'media.create',
    access: 'token',
    permissions: PUBLISH,
    handler: createMedia,
  },
  {
    method: 'GET',
    pattern: graphPath(`/${USER}/media`),
    endpoint: 'media.list',
    access: 'token',
    permissions: BASIC,
    handler: listMedia('media'),
  },
  {
    method: 'GET',
    pattern: graphPath(`/${USER}/stories`),
    endpoint: 'stories.list',
    access: 'token',
    permissions: BASIC,
    handler: listMedia('stories'),
  },
  {
    method: 'POST',
    pattern: graphPath(`/${USER}/media_publish`),
    endpoint: 'media_publish',
    access: 'token',
    permissions: PUBLISH,
    handler: mediaPublish,
  },
  {
    method: 'GET',
    pattern: graphPath(`/${USER}/content_publishing_limit`),
    endpoint: 'content_publishing_limit',
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
    method: 'POST',
    pattern: graphPath('/(?<id>[0-9]+)/comments'),
    endpoint: 'comments.create',
    access: 'token',
    permissions: COMMENTS,
    handler: createComment,
  },
  {
    method: 'GET',
    pattern: graphPath('/(?<id>[0-9]+)/comments'),
    endpoint: 'comments.list',
    access: 'token',
    permissions: COMMENTS,
    handler: listComments,
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
  const throttle = throttled(context.control, authenticated.user.userId, context.settings.now());
  if (throttle) return throttle;
  const missing = route.permissions.filter((permission) => !authenticated.token.scopes.includes(permission));
  if (missing.length > 0) return graphError(10, 'Application does not have permission for this action.');
  return route.handler(authenticated);
}
