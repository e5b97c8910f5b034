import {
  ACCOUNT_METRIC_NAMES,
  type AccountMetricName,
  type AccountMetricValues,
  cleanMetricValues,
  POST_METRIC_NAMES,
  type PostMetricName,
  type PostMetricValues,
} from '../../domain/metrics.js';

/** GET /2/tweets takes 1 to 100 ids (`ids`, maxItems 100 in X's OpenAPI document). */
export const X_METRICS_BATCH_SIZE = 100;

/**
 * What both reads need with a user's OAuth 2.0 token: the security of GET /2/tweets and
 * GET /2/users/me in X's OpenAPI document. The connector asks for both at connect anyway (oauth.ts).
 */
export const X_METRICS_SCOPES = ['tweet.read', 'users.read'] as const;

/**
 * X's names for our metrics (docs/metrics.md "X"), as docs.x.com's metrics page and the Post and
 * User objects name them: `public_metrics` on GET /2/tweets and GET /2/users/me. X's OpenAPI
 * document 2.167 names two of them differently (`repost_count`, `post_count`) while the reference
 * and the live API answer `retweet_count` and `tweet_count`: the reference wins, and the other name
 * is read too, so a switch on X's side does not empty the field.
 *
 * Not read: `non_public_metrics` and `organic_metrics` (link and profile clicks), which X gives
 * only for posts of the last 30 days, so the schedule's later collections could not have them.
 */
export const X_POST_METRIC_FIELDS = {
  impressions: 'impression_count',
  likes: 'like_count',
  comments: 'reply_count',
  shares: 'retweet_count',
  quotes: 'quote_count',
  saves: 'bookmark_count',
} as const satisfies Partial<Record<PostMetricName, string>>;

export const X_ACCOUNT_METRIC_FIELDS = {
  followers: 'followers_count',
  following: 'following_count',
  posts: 'tweet_count',
} as const satisfies Partial<Record<AccountMetricName, string>>;

/** The OpenAPI document's names, read where the reference's are absent. */
const OPENAPI_ALIASES: Readonly<Record<string, string>> = {
  retweet_count: 'repost_count',
  tweet_count: 'post_count',
};

function pick<N extends string>(
  publicMetrics: Readonly<Record<string, unknown>>,
  fields: Readonly<Partial<Record<N, string>>>,
): Partial<Record<N, unknown>> {
  const values: Partial<Record<N, unknown>> = {};
  for (const [ours, theirs] of Object.entries(fields) as [N, string][]) {
    const alias = OPENAPI_ALIASES[theirs];
    values[ours] = publicMetrics[theirs] ?? (alias === undefined ? undefined : publicMetrics[alias]);
  }
  return values;
}

/** A Post's `public_metrics` in our vocabulary: only the numbers X gave, never a 0 it did not. */
export function postMetricsOf(publicMetrics: Readonly<Record<string, unknown>>): PostMetricValues {
  return cleanMetricValues(pick<PostMetricName>(publicMetrics, X_POST_METRIC_FIELDS), POST_METRIC_NAMES);
}

/** A User's `public_metrics` in our vocabulary. */
export function accountMetricsOf(publicMetrics: Readonly<Record<string, unknown>>): AccountMetricValues {
  return cleanMetricValues(
    pick<AccountMetricName>(publicMetrics, X_ACCOUNT_METRIC_FIELDS),
    ACCOUNT_METRIC_NAMES,
  );
}
