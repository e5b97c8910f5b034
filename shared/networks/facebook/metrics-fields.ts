import type { NetworkMetrics } from '../definition.js';

/**
 * Facebook's metrics as data (docs/metrics.md "Facebook"): the engagement counts a Page's post or
 * video carries as fields (facebook-pages.md §7), with `pages_read_engagement`, which every connect
 * asks for publishing anyway. Insights (`/insights`, `read_insights`) are not read: Meta removed
 * the impressions family in 2025 and announced more removals for 2026 (the names left are
 * unconfirmed, research open question 3), and they need Pages of 100 likes or more.
 */
export const FACEBOOK_ENGAGEMENT_SCOPE = 'pages_read_engagement';

/** A feed post's fields (`<page-id>_<post-id>`): reactions, comments and shares. */
export const FACEBOOK_POST_FIELDS =
  'reactions.summary(total_count).limit(0),comments.summary(true).limit(0),shares';
/** A video's or reel's fields (a video id): a video has no `shares` field. */
export const FACEBOOK_VIDEO_FIELDS =
  'reactions.summary(total_count).limit(0),comments.summary(true).limit(0)';
/** The Page's own counts. */
export const FACEBOOK_PAGE_FIELDS = 'followers_count';

export const facebookMetrics: NetworkMetrics = {
  scopes: [FACEBOOK_ENGAGEMENT_SCOPE],
  batchSize: 1,
  fields: {
    likes: 'reactions.summary.total_count (every reaction, not only likes)',
    comments: 'comments.summary.total_count',
    shares: 'shares.count (feed posts; videos and reels have none)',
    'account.followers': 'followers_count',
  },
  source:
    'GET /{post-id}?fields=reactions.summary(total_count).limit(0),comments.summary(true).limit(0),shares (a video or reel: without shares); the Page: GET /{page-id}?fields=followers_count',
  cost: 'One call per post, counted against the Page’s Business Use Case limit (calls per 24 hours per Page); no money.',
};
