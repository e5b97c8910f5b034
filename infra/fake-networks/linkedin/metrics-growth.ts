import { linkedInError, type Reply } from './http.js';
import type { ApiContext } from './route.js';
import type { FakePost } from './store.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How fast each number grows, per hour since the post was made (the fake's clock), by the member
 * finder's queryType and by the Page statistics' field: numbers that grow with time, so a
 * collection sees them change. A Page post's and a member post's grow alike.
 */
const PER_HOUR = {
  IMPRESSION: 40,
  MEMBERS_REACHED: 25,
  REACTION: 3,
  COMMENT: 1,
  RESHARE: 0.25,
  POST_SAVE: 1 / 6,
} as const satisfies Record<string, number>;
export type QueryType = keyof typeof PER_HOUR;

/** Organization Share Statistics' names for the same numbers, and its clicks. */
const SHARE_STATISTICS = {
  impressionCount: 'IMPRESSION',
  uniqueImpressionsCount: 'MEMBERS_REACHED',
  likeCount: 'REACTION',
  commentCount: 'COMMENT',
  shareCount: 'RESHARE',
} as const satisfies Record<string, QueryType>;

export function isQueryType(value: string): value is QueryType {
  return Object.hasOwn(PER_HOUR, value);
}

export function growth(post: FakePost, queryType: QueryType, now: number): number {
  const hours = Math.max(0, now - post.createdAt) / HOUR_MS;
  return Math.floor(hours * PER_HOUR[queryType]);
}

/** A Page post's `totalShareStatistics`, as LinkedIn shapes it (engagement a ratio). */
export function shareStatistics(post: FakePost, now: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [field, queryType] of Object.entries(SHARE_STATISTICS))
    counts[field] = growth(post, queryType, now);
  counts.clickCount = Math.floor(Math.max(0, now - post.createdAt) / HOUR_MS / 2);
  const impressions = counts.impressionCount ?? 0;
  const engaged =
    (counts.likeCount ?? 0) + (counts.commentCount ?? 0) + (counts.shareCount ?? 0) + counts.clickCount;
  counts.engagement = impressions > 0 ? engaged / impressions : 0;
  return counts;
}

/**
 * LinkedIn's daily limits, per member and resource, reset at midnight UTC; its 429 carries no
 * Retry-After (networks/linkedin.md §7).
 */
export function throttled(context: ApiContext, finder: string): Reply | undefined {
  const day = Math.floor(context.settings.now() / DAY_MS);
  const key = `${finder} ${context.member.sub} ${day}`;
  const used = (context.store.metricsReads.get(key) ?? 0) + 1;
  context.store.metricsReads.set(key, used);
  if (used <= context.settings.metricsDailyLimit) return undefined;
  return linkedInError(
    429,
    'Resource level throttle MEMBER DAY limit for calls to this resource is reached.',
  );
}
