import { FAKE_TIKTOK_APP_PER_MINUTE, type Handler, type RouteContext } from './context.js';
import { envelope, ok, type Reply } from './http.js';
import { type Authorized, authorize, invalid, isReply, json } from './route-guards.js';

/**
 * The Display API's reads the metrics use (developers.tiktok.com "Query Videos", "Get User Info",
 * "Rate Limits"), with counts that grow with the fake's clock from each video's posting, so a test
 * moving its clock sees the numbers move.
 */

/** The Video Object's fields `video/query` may be asked for. */
const VIDEO_FIELDS = new Set([
  'id',
  'create_time',
  'cover_image_url',
  'share_url',
  'video_description',
  'duration',
  'height',
  'width',
  'title',
  'embed_html',
  'embed_link',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
]);
const MAX_VIDEO_IDS = 20;
const STATS_FIELDS = ['follower_count', 'following_count', 'likes_count', 'video_count'];

/** A creator's public video as the fake knows it: by publish here, or added by a test. */
interface Visible {
  postId: string;
  openId: string;
  createdAt: number;
}

/** TikTok's per-app limit of the endpoint, over a one-minute sliding window. */
export function appLimited(context: RouteContext, endpoint: 'video_query' | 'user_info'): Reply | undefined {
  const limit = context.settings.perMinute[endpoint] ?? FAKE_TIKTOK_APP_PER_MINUTE;
  return context.state.allowCall(`app:${context.app.clientKey}`, endpoint, limit, context.settings.now())
    ? undefined
    : envelope(429, 'rate_limit_exceeded', 'API rate limit exceeded, please retry later.');
}

/** Views 10 a minute since posting; likes, comments and shares a fixed share of them. */
export function videoCounts(createdAt: number, now: number) {
  const views = Math.floor(Math.max(0, now - createdAt) / 6_000);
  return {
    view_count: views,
    like_count: Math.floor(views / 8),
    comment_count: Math.floor(views / 40),
    share_count: Math.floor(views / 100),
  };
}

function visibleVideos(context: RouteContext): Visible[] {
  const { state } = context;
  const published = [...state.publishes.values()].flatMap((publish) =>
    publish.postId ? [{ postId: publish.postId, openId: publish.openId, createdAt: publish.createdAt }] : [],
  );
  return [...published, ...state.videos.values()].filter((video) => !state.deletedPostIds.has(video.postId));
}

/**
 * The user/info counts (user.info.stats since TikTok's scope migration; without it TikTok answers
 * `scope_permission_missed`, 400, "some fields need additional scopes"): none asked, none given.
 */
export function creatorStats(
  context: RouteContext,
  auth: Authorized,
  fields: readonly string[],
): Record<string, number> | Reply {
  const asked = fields.filter((field) => STATS_FIELDS.includes(field));
  if (asked.length === 0) return {};
  if (!auth.token.scopes.includes('user.info.stats')) {
    return envelope(400, 'scope_permission_missed', 'Some fields need additional scopes: user.info.stats.');
  }
  const now = context.settings.now();
  const own = visibleVideos(context).filter((video) => video.openId === auth.creator.openId);
  const all: Record<string, number> = {
    follower_count: 1_000 + Math.floor(Math.max(0, now - context.state.startedAt) / 60_000),
    following_count: 180,
    likes_count: own.reduce((sum, video) => sum + videoCounts(video.createdAt, now).like_count, 0),
    video_count: own.length,
  };
  return Object.fromEntries(asked.map((field) => [field, all[field] ?? 0]));
}

/**
 * POST /v2/video/query/?fields=…: the token's creator's own public videos among 1–20 ids (strings:
 * an int64 sent as a JSON number is refused); an id TikTok no longer shows is left out.
 */
export const videoQuery: Handler = (context) => {
  const auth = authorize(context, 'video.list');
  if (isReply(auth)) return auth;
  const refused = appLimited(context, 'video_query');
  if (refused) return refused;
  const fields = (context.url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
  if (fields.length === 0) return invalid('fields is required.');
  const unknown = fields.find((field) => !VIDEO_FIELDS.has(field));
  if (unknown !== undefined) return invalid(`Unknown field: ${unknown}.`);
  const filters = json(context)?.filters;
  const ids =
    typeof filters === 'object' && filters !== null
      ? (filters as Record<string, unknown>).video_ids
      : undefined;
  if (!Array.isArray(ids) || ids.length === 0) return invalid('filters.video_ids is required.');
  if (ids.length > MAX_VIDEO_IDS) return invalid(`At most ${MAX_VIDEO_IDS} video_ids at a time.`);
  if (!ids.every((id): id is string => typeof id === 'string' && /^\d{1,20}$/.test(id))) {
    return invalid('video_ids must be strings of digits.');
  }
  context.state.videoQueries.push([...ids]);
  const now = context.settings.now();
  const own = new Map(
    visibleVideos(context)
      .filter((video) => video.openId === auth.creator.openId)
      .map((video) => [video.postId, video]),
  );
  const videos = ids.flatMap((id) => {
    const video = own.get(id);
    if (!video) return [];
    const all: Record<string, string | number> = {
      id,
      create_time: Math.floor(video.createdAt / 1000),
      share_url: `https://www.tiktok.com/@${auth.creator.username}/video/${id}`,
      ...videoCounts(video.createdAt, now),
    };
    return [
      Object.fromEntries(fields.flatMap((field) => (all[field] === undefined ? [] : [[field, all[field]]]))),
    ];
  });
  return ok({ videos, cursor: 0, has_more: false });
};
