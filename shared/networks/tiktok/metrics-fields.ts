import type { AccountMetricName, PostMetricName } from '../../domain/metrics.js';

/**
 * What TikTok's numbers are called and need (docs/metrics.md "TikTok"), as data shared by the
 * definition, the OAuth declaration and the readers, with no dependencies of its own.
 */

/** `POST /v2/video/query/` (Display API): a creator's own public videos, by id. */
export const TIKTOK_VIDEO_QUERY_SCOPE = 'video.list';
/** `GET /v2/user/info/`'s counts (follower_count…): user.info.basic no longer covers them. */
export const TIKTOK_USER_STATS_SCOPE = 'user.info.stats';
export const TIKTOK_METRICS_SCOPES: readonly string[] = [TIKTOK_VIDEO_QUERY_SCOPE, TIKTOK_USER_STATS_SCOPE];

/** "Up to 20 video IDs can be included per request" (Query Videos). */
export const TIKTOK_VIDEO_QUERY_BATCH = 20;

/** Our post metric and the Video Object field TikTok names it by. */
export const TIKTOK_POST_FIELDS = {
  views: 'view_count',
  likes: 'like_count',
  comments: 'comment_count',
  shares: 'share_count',
} as const satisfies Partial<Record<PostMetricName, string>>;

/** Our account metric and the User Object field TikTok names it by (user.info.stats). */
export const TIKTOK_ACCOUNT_FIELDS = {
  followers: 'follower_count',
  following: 'following_count',
  likes: 'likes_count',
  posts: 'video_count',
} as const satisfies Partial<Record<AccountMetricName, string>>;
