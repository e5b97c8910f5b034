import {
  ACCOUNT_METRIC_NAMES,
  type AccountMetricName,
  type AccountMetricValues,
  cleanMetricValues,
  POST_METRIC_NAMES,
  type PostMetricName,
  type PostMetricValues,
} from '../../domain/metrics.js';

/** `app.bsky.feed.getPosts` takes at most 25 AT-URIs (its lexicon). */
export const BLUESKY_METRICS_BATCH_SIZE = 25;

/**
 * Our names for Bluesky's counts (research §7): a post view's counts (lexicon
 * `app.bsky.feed.defs#postView`), the profile's (`app.bsky.actor.defs#profileViewDetailed`).
 * Quotes are their own count (`quotes`), not shares; `bookmarkCount` is newer and may be absent.
 * Bluesky has no impressions, views or clicks, even for the author.
 */
export const BLUESKY_POST_METRIC_FIELDS = {
  likes: 'likeCount',
  comments: 'replyCount',
  shares: 'repostCount',
  quotes: 'quoteCount',
  saves: 'bookmarkCount',
} as const satisfies Partial<Record<PostMetricName, string>>;

export const BLUESKY_ACCOUNT_METRIC_FIELDS = {
  followers: 'followersCount',
  following: 'followsCount',
  posts: 'postsCount',
} as const satisfies Partial<Record<AccountMetricName, string>>;

function pick<N extends string>(
  view: Readonly<Record<string, unknown>>,
  fields: Readonly<Partial<Record<N, string>>>,
): Partial<Record<N, unknown>> {
  const values: Partial<Record<N, unknown>> = {};
  for (const [ours, theirs] of Object.entries(fields) as [N, string][]) values[ours] = view[theirs];
  return values;
}

/** A post view's counts in our vocabulary: only the numbers Bluesky gave. */
export function postMetricsOf(view: Readonly<Record<string, unknown>>): PostMetricValues {
  return cleanMetricValues(pick<PostMetricName>(view, BLUESKY_POST_METRIC_FIELDS), POST_METRIC_NAMES);
}

export function accountMetricsOf(profile: Readonly<Record<string, unknown>>): AccountMetricValues {
  return cleanMetricValues(
    pick<AccountMetricName>(profile, BLUESKY_ACCOUNT_METRIC_FIELDS),
    ACCOUNT_METRIC_NAMES,
  );
}
