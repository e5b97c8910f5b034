import type { NetworkMetrics } from '../definition.js';

/**
 * Threads' metrics as data (docs/metrics.md, threads.md §11): `GET /{media-id}/insights?metric=…`,
 * one post per request, and `GET /{threads-user-id}/threads_insights?metric=followers_count`, both
 * with `threads_manage_insights`.
 */
export const THREADS_INSIGHTS_SCOPE = 'threads_manage_insights';

/** The post metrics asked, by Threads' names (`shares` is "in development": left out). */
export const THREADS_POST_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes'] as const;

export const threadsMetrics: NetworkMetrics = {
  scopes: [THREADS_INSIGHTS_SCOPE],
  batchSize: 1,
  fields: {
    views: 'views',
    likes: 'likes',
    comments: 'replies',
    shares: 'reposts',
    quotes: 'quotes',
    'account.followers': 'followers_count (threads_insights)',
  },
  source:
    'GET /{media-id}/insights?metric=views,likes,replies,reposts,quotes (one post a request); the account: GET /{threads-user-id}/threads_insights?metric=followers_count',
  cost: 'One call per post, counted against the app–user pair’s call budget (4800 × impressions a day); no money.',
};
