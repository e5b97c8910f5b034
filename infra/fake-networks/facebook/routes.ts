import { createComment, listComments } from './comment-routes.js';
import type { FakeFacebookEndpoint } from './control.js';
import { type Reply, replies } from './http.js';
import { accessToken, accounts, dialogDecision, dialogPage, me, permissions } from './oauth-routes.js';
import { feed, photos, reels, videos, videosOnGraphHost } from './publish-routes.js';
import { object, pageVideos, publishedPosts, rupload } from './read-routes.js';
import type { ApiContext, Handler, RouteContext } from './route.js';
import type { FakeToken } from './store.js';

interface Route {
  method: 'GET' | 'POST' | 'ANY';
  pattern: RegExp;
  endpoint: FakeFacebookEndpoint;
  /** Without a token (the dialog, the code exchange). */
  open?: Handler<RouteContext>;
  api?: Handler<ApiContext>;
}

const V = 'v\\d+\\.\\d+';
const ID = '[0-9_]+';

/** The fake's routes; the graph-video and rupload hosts are path prefixes on the one port. */
const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: new RegExp(`^/(?<version>${V})/dialog/oauth$`),
    endpoint: 'dialog',
    open: dialogPage,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/(?<version>${V})/dialog/oauth/decision$`),
    endpoint: 'dialog',
    open: dialogDecision,
  },
  { method: 'ANY', pattern: new RegExp(`^/${V}/oauth/access_token$`), endpoint: 'token', open: accessToken },
  { method: 'GET', pattern: new RegExp(`^/${V}/me/permissions$`), endpoint: 'permissions', api: permissions },
  { method: 'GET', pattern: new RegExp(`^/${V}/me/accounts$`), endpoint: 'accounts', api: accounts },
  { method: 'GET', pattern: new RegExp(`^/${V}/me$`), endpoint: 'me', api: me },
  { method: 'POST', pattern: new RegExp(`^/${V}/(?<page>${ID})/feed$`), endpoint: 'feed', api: feed },
  { method: 'POST', pattern: new RegExp(`^/${V}/(?<page>${ID})/photos$`), endpoint: 'photos', api: photos },
  {
    method: 'POST',
    pattern: new RegExp(`^/graph-video/${V}/(?<page>${ID})/videos$`),
    endpoint: 'videos',
    api: videos,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/${V}/(?<page>${ID})/videos$`),
    endpoint: 'videos',
    api: videosOnGraphHost,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/${V}/(?<page>${ID})/video_reels$`),
    endpoint: 'reels',
    api: reels,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/rupload/video-upload/${V}/(?<video>${ID})$`),
    endpoint: 'rupload',
    api: rupload,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/${V}/(?<page>${ID})/published_posts$`),
    endpoint: 'published_posts',
    api: publishedPosts,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/${V}/(?<page>${ID})/videos$`),
    endpoint: 'page_videos',
    api: pageVideos,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/${V}/(?<id>${ID})/comments$`),
    endpoint: 'comments.create',
    api: createComment,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/${V}/(?<id>${ID})/comments$`),
    endpoint: 'comments.list',
    api: listComments,
  },
  { method: 'GET', pattern: new RegExp(`^/${V}/(?<id>${ID})$`), endpoint: 'object', api: object },
];

export function findRoute(
  method: string,
  url: URL,
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    if (route.method !== 'ANY' && route.method !== method) continue;
    const match = route.pattern.exec(url.pathname);
    if (match) return { route, params: { ...match.groups } };
  }
  return undefined;
}

/** The token of a request: `Authorization: OAuth …` or `Bearer …`, or the `access_token` parameter. */
function tokenOf(context: RouteContext): FakeToken | Reply {
  const header = String(context.headers.authorization ?? '');
  const value = /^(?:OAuth|Bearer) (.+)$/.exec(header)?.[1] ?? context.fields.get('access_token') ?? '';
  if (!value)
    return {
      status: 400,
      json: {
        error: {
          message: 'An active access token must be used to query information about the current user.',
          type: 'OAuthException',
          code: 2500,
          fbtrace_id: 'AfakeFacebookTrace',
        },
      },
    };
  const token = context.store.tokens.get(value);
  if (!token) return replies.invalidToken();
  if (token.revoked) return replies.revokedToken();
  if (token.expiresAt !== undefined && token.expiresAt <= context.settings.now())
    return replies.expiredToken();
  return token;
}

export async function run(route: Route, context: RouteContext): Promise<Reply> {
  if (route.open) return route.open(context);
  const token = tokenOf(context);
  if ('status' in token) return token;
  if (!route.api) return replies.badParameter('Unsupported request.');
  return route.api({ ...context, token });
}
