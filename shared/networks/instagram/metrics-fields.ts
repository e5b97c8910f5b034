import type { NetworkMetrics } from '../definition.js';

/**
 * Instagram's metrics as data (docs/metrics.md "Instagram"), from the Instagram Media Insights
 * reference for Instagram API with Instagram Login
 * (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights):
 * `GET /{media-id}/insights?metric=…`, one media per request, with `instagram_business_basic` and
 * `instagram_business_manage_insights`. `impressions`, `plays` and `video_views` are deprecated
 * (an error for media made after 2 July 2024 since 21 April 2025): `views` replaces them.
 */
export const INSTAGRAM_INSIGHTS_SCOPE = 'instagram_business_manage_insights';

/** Which metrics each media product type answers: asking one it does not is an error (code 100). */
export const INSTAGRAM_INSIGHT_METRICS = {
  FEED: ['views', 'reach', 'likes', 'comments', 'shares', 'saved'],
  REELS: ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'ig_reels_video_view_total_time'],
  // Stories have no likes, comments or saves; their insights last 24 hours.
  STORY: ['views', 'reach', 'shares'],
} as const satisfies Record<string, readonly string[]>;
export type InstagramProductType = keyof typeof INSTAGRAM_INSIGHT_METRICS;
export type InstagramInsightMetric = (typeof INSTAGRAM_INSIGHT_METRICS)[InstagramProductType][number];

/** The account's own counts, fields of `GET /me` (instagram_business_basic only). */
export const INSTAGRAM_ACCOUNT_FIELDS = {
  followers: 'followers_count',
  following: 'follows_count',
  posts: 'media_count',
} as const;

export const instagramMetrics: NetworkMetrics = {
  scopes: [INSTAGRAM_INSIGHTS_SCOPE],
  // The account's counts come from GET /me: instagram_business_basic, which every connect asks, not insights.
  accountScopes: [],
  batchSize: 1,
  fields: {
    views: 'views',
    reach: 'reach',
    likes: 'likes',
    comments: 'comments',
    shares: 'shares',
    saves: 'saved',
    watchTimeSeconds: 'ig_reels_video_view_total_time (milliseconds, reels only)',
    'account.followers': 'followers_count',
    'account.following': 'follows_count',
    'account.posts': 'media_count',
  },
  source:
    'GET /{media-id}?fields=media_product_type, then GET /{media-id}/insights?metric=… (the metrics that product type answers); the account: GET /me?fields=followers_count,follows_count,media_count',
  cost: 'Two calls per post (its type, then its insights), counted against the account’s Business Use Case limit (4800 × impressions a day); no money.',
};
