/**
 * How posts and accounts did, in one vocabulary across networks (issue 28, docs/metrics.md). Each
 * field is present only where the network reports it: an absent field is "not reported", never 0.
 */
export const POST_METRIC_NAMES = [
  /** Times the post was shown (X's impression_count, LinkedIn's IMPRESSION). */
  'impressions',
  /** Distinct accounts that saw it (Instagram's reach, LinkedIn's MEMBERS_REACHED). */
  'reach',
  /** Plays or views of a video or post (YouTube's viewCount, TikTok's view_count, Instagram's views). */
  'views',
  'likes',
  'comments',
  /** Reposts, retweets, shares. */
  'shares',
  /** Saves and bookmarks. */
  'saves',
  /** Link or profile clicks. */
  'clicks',
  /** Quotes (X's quote_count). */
  'quotes',
  /** Total watch time, seconds. */
  'watchTimeSeconds',
  /** The average share of a video watched, 0–100. */
  'averageViewPercent',
] as const;
export type PostMetricName = (typeof POST_METRIC_NAMES)[number];

/** A post's numbers as one reading: whole numbers except averageViewPercent. */
export type PostMetricValues = Partial<Record<PostMetricName, number>>;

export const ACCOUNT_METRIC_NAMES = [
  'followers',
  'following',
  /** The posts (or videos) on the account, as the network counts them. */
  'posts',
  /** Total views of the account's content, where the network gives it cheaply (YouTube's viewCount). */
  'views',
  /** Total likes of the account's content (TikTok's likes_count). */
  'likes',
] as const;
export type AccountMetricName = (typeof ACCOUNT_METRIC_NAMES)[number];
export type AccountMetricValues = Partial<Record<AccountMetricName, number>>;

/** One reading, as stored and answered. */
export interface MetricsReading<V> {
  /** ISO 8601, the time the service read them. */
  collectedAt: string;
  metrics: V;
}

/**
 * Why a network gave no numbers (an answer of the metrics reader other than numbers), each a
 * documented outcome:
 * - `missing_scopes`: the account's token lacks the permission the network's metrics need (it was
 *   connected before they were asked for, or the person declined them): reconnecting adds them;
 * - `not_found`: the network no longer has the post (deleted there);
 * - `rate_limited`: the network said to wait (`retryAfterSeconds` when it said how long);
 * - `auth_failed`: the token was refused (expired beyond refresh, revoked): the account needs a reconnect;
 * - `unavailable`: no answer that settles it (a time-out, a 5xx): the next collection tries again.
 */
export type MetricsFailureKind =
  | 'missing_scopes'
  | 'not_found'
  | 'rate_limited'
  | 'auth_failed'
  | 'unavailable';

/** Drops fields that are not numbers a person would read as a count (NaN, negative, infinite). */
export function cleanMetricValues<N extends string>(
  values: Partial<Record<N, unknown>>,
  names: readonly N[],
): Partial<Record<N, number>> {
  const clean: Partial<Record<N, number>> = {};
  for (const name of names) {
    const value = values[name];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) clean[name] = value;
  }
  return clean;
}

/**
 * A published post's metrics as the service keeps them (on the post, not in its API resource: the
 * metrics operations answer them): each reading in order, the next collection while there is one,
 * and why the last one gave nothing, if it did.
 */
export interface PostMetricsState {
  readings: MetricsReading<PostMetricValues>[];
  /** Absent once the schedule has ended (or stopped: the post is gone at the network). */
  collection?: { checks: number; nextCollectAt: string };
  /** The last collection's failure; cleared by the next reading. */
  problem?: { failure: MetricsFailureKind; at: string; missingScopes?: readonly string[] };
}
