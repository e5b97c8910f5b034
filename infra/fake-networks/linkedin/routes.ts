import { authenticate, isReply, versionProblem } from './api-auth.js';
import { createComment, listComments } from './comments-routes.js';
import type { FakeLinkedInEndpoint } from './control.js';
import type { Reply } from './http.js';
import { initializeWhole, mediaStatus, uploadVideoPart, uploadWhole, videosAction } from './media-routes.js';
import { memberFollowersCount, memberPostAnalytics } from './metrics-routes.js';
import { accessToken, authorizationDecision, authorizationPage, revoke } from './oauth-routes.js';
import { organizationShareStatistics } from './page-statistics-routes.js';
import { createPost, listPosts } from './posts-routes.js';
import { me, organizationAcls, userinfo } from './profile-routes.js';
import type { ApiContext, FakeLinkedInSettings, Handler, RouteContext } from './route.js';

const MB = 1024 * 1024;

interface RouteBase {
  method: string;
  pattern: RegExp;
  endpoint: FakeLinkedInEndpoint | ((url: URL) => FakeLinkedInEndpoint);
  /** Largest body the route reads (1 MiB unless said). */
  maxBody: (settings: FakeLinkedInSettings) => number;
}

/**
 * - `open`: no token (OAuth, signed upload URLs);
 * - `bearer`: a member's token (userinfo, me, whole-file uploads);
 * - `versioned`: a token and the version headers (everything under /rest).
 */
export type Route =
  | (RouteBase & { access: 'open'; handler: Handler<RouteContext> })
  | (RouteBase & { access: 'bearer' | 'versioned'; handler: Handler<ApiContext> });

const oneMegabyte = () => MB;

const open = (
  method: string,
  pattern: RegExp,
  endpoint: RouteBase['endpoint'],
  handler: Handler<RouteContext>,
  maxBody: RouteBase['maxBody'] = oneMegabyte,
): Route => ({ method, pattern, endpoint, access: 'open', handler, maxBody });

const api = (
  access: 'bearer' | 'versioned',
  method: string,
  pattern: RegExp,
  endpoint: RouteBase['endpoint'],
  handler: Handler<ApiContext>,
  maxBody: RouteBase['maxBody'] = oneMegabyte,
): Route => ({ method, pattern, endpoint, access, handler, maxBody });

export const ROUTES: readonly Route[] = [
  open('GET', /^\/oauth\/v2\/authorization$/, 'authorization', authorizationPage),
  open('POST', /^\/oauth\/v2\/authorization\/decision$/, 'authorization', authorizationDecision),
  open('POST', /^\/oauth\/v2\/accessToken$/, 'accessToken', accessToken),
  open('POST', /^\/oauth\/v2\/revoke$/, 'revoke', revoke),
  api('bearer', 'GET', /^\/v2\/userinfo$/, 'userinfo', userinfo),
  api('bearer', 'GET', /^\/v2\/me$/, 'me', me),
  api('versioned', 'GET', /^\/rest\/organizationAcls$/, 'organizationAcls', organizationAcls),
  api('versioned', 'POST', /^\/rest\/posts$/, 'posts.create', createPost),
  api('versioned', 'GET', /^\/rest\/posts$/, 'posts.list', listPosts),
  api(
    'versioned',
    'POST',
    /^\/rest\/socialActions\/(?<urn>[^/]+)\/comments$/,
    'comments.create',
    createComment,
  ),
  api('versioned', 'GET', /^\/rest\/socialActions\/(?<urn>[^/]+)\/comments$/, 'comments.list', listComments),
  api(
    'versioned',
    'GET',
    /^\/rest\/memberCreatorPostAnalytics$/,
    'memberCreatorPostAnalytics',
    memberPostAnalytics,
  ),
  api('versioned', 'GET', /^\/rest\/memberFollowersCount$/, 'memberFollowersCount', memberFollowersCount),
  api(
    'versioned',
    'GET',
    /^\/rest\/organizationalEntityShareStatistics$/,
    'organizationalEntityShareStatistics',
    organizationShareStatistics,
  ),
  api('versioned', 'POST', /^\/rest\/images$/, 'images.initialize', initializeWhole('image')),
  api('versioned', 'GET', /^\/rest\/images\/(?<urn>[^/]+)$/, 'images.get', mediaStatus('image')),
  api(
    'versioned',
    'POST',
    /^\/rest\/videos$/,
    (url) => (url.searchParams.get('action') === 'finalizeUpload' ? 'videos.finalize' : 'videos.initialize'),
    videosAction,
  ),
  api('versioned', 'GET', /^\/rest\/videos\/(?<urn>[^/]+)$/, 'videos.get', mediaStatus('video')),
  api('versioned', 'POST', /^\/rest\/documents$/, 'documents.initialize', initializeWhole('document')),
  api('versioned', 'GET', /^\/rest\/documents\/(?<urn>[^/]+)$/, 'documents.get', mediaStatus('document')),
  // Image and document uploads carry the member's token (linkedin.md §3).
  api(
    'bearer',
    'PUT',
    /^\/dms-uploads\/image\/(?<id>[^/]+)$/,
    'images.upload',
    uploadWhole('image'),
    (s) => s.maxBytes.image,
  ),
  api(
    'bearer',
    'PUT',
    /^\/dms-uploads\/document\/(?<id>[^/]+)$/,
    'documents.upload',
    uploadWhole('document'),
    (s) => s.maxBytes.document,
  ),
  // Video part URLs are signed: LinkedIn's examples PUT them without a token.
  open(
    'PUT',
    /^\/dms-uploads\/video\/(?<id>[^/]+)\/part\/(?<part>[0-9]+)$/,
    'videos.upload',
    uploadVideoPart,
    (s) => s.videoPartBytes,
  ),
];

/** The route of a request and its path parameters. */
export function findRoute(
  method: string,
  url: URL,
): { route: Route; endpoint: FakeLinkedInEndpoint; params: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(url.pathname);
    if (!match) continue;
    const endpoint = typeof route.endpoint === 'function' ? route.endpoint(url) : route.endpoint;
    return { route, endpoint, params: { ...match.groups } };
  }
  return undefined;
}

/** Runs a route: the token and version headers checked first where it needs them, as LinkedIn does. */
export async function run(route: Route, context: RouteContext): Promise<Reply> {
  if (route.access === 'open') return route.handler(context);
  const authenticated = authenticate(context);
  if (isReply(authenticated)) return authenticated;
  const problem = route.access === 'versioned' ? versionProblem(context) : undefined;
  return problem ?? route.handler(authenticated);
}
