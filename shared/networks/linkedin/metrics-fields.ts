import type { PostMetricName } from '../../domain/metrics.js';

/**
 * What LinkedIn's Member Post Analytics API calls each of our post metrics: one `queryType` of
 * `GET /rest/memberCreatorPostAnalytics?q=entity` each (learn.microsoft.com/linkedin/marketing/
 * community-management/members/post-statistics). POST_SAVE is listed from version 202604 on; the
 * connector's LINKEDIN_VERSION is later. Views, clicks and watch time are not offered per post.
 */
export const LINKEDIN_POST_METRIC_TYPES = {
  impressions: 'IMPRESSION',
  reach: 'MEMBERS_REACHED',
  likes: 'REACTION',
  comments: 'COMMENT',
  shares: 'RESHARE',
  saves: 'POST_SAVE',
} as const satisfies Partial<Record<PostMetricName, string>>;

export type LinkedInPostMetricType =
  (typeof LINKEDIN_POST_METRIC_TYPES)[keyof typeof LINKEDIN_POST_METRIC_TYPES];

/**
 * A Page's posts' lifetime numbers as Organization Share Statistics names them (each element's
 * `totalShareStatistics`; learn.microsoft.com/linkedin/marketing/community-management/
 * organizations/share-statistics). `engagement` is a ratio, not a count: not kept.
 */
export const LINKEDIN_SHARE_STATISTICS_FIELDS = {
  impressions: 'impressionCount',
  reach: 'uniqueImpressionsCount',
  likes: 'likeCount',
  comments: 'commentCount',
  shares: 'shareCount',
  clicks: 'clickCount',
} as const satisfies Partial<Record<PostMetricName, string>>;

/**
 * A Page's share statistics: the Community Management app's `rw_organization_admin` and the
 * member's ADMINISTRATOR role on the Page (the official page names this scope, not
 * `r_organization_social`).
 */
export const LINKEDIN_PAGE_STATISTICS_SCOPE = 'rw_organization_admin';

/** The member's post statistics (memberCreatorPostAnalytics): Community Management API only. */
export const LINKEDIN_POST_ANALYTICS_SCOPE = 'r_member_postAnalytics';
/** The member's follower count (memberFollowersCount): Community Management API only. */
export const LINKEDIN_PROFILE_ANALYTICS_SCOPE = 'r_member_profileAnalytics';

/**
 * The member finder takes one post (`entity`) and one `queryType` a request; a Page's posts go
 * several a request (metrics-page-posts.ts) however many the collection hands over.
 */
export const LINKEDIN_METRICS_BATCH_SIZE = 1;

/**
 * The posts a Page statistics request names; LinkedIn documents no most, so this is ours, kept
 * well inside a URL's length.
 */
export const LINKEDIN_PAGE_POSTS_PER_REQUEST = 20;

/** Each of our names and LinkedIn's, a member's post's and a Page's post's, for docs/metrics.md. */
export const LINKEDIN_METRIC_FIELD_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ...new Set([
      ...Object.keys(LINKEDIN_POST_METRIC_TYPES),
      ...Object.keys(LINKEDIN_SHARE_STATISTICS_FIELDS),
    ]),
  ].map((ours) => {
    const member = (LINKEDIN_POST_METRIC_TYPES as Readonly<Record<string, string>>)[ours];
    const page = (LINKEDIN_SHARE_STATISTICS_FIELDS as Readonly<Record<string, string>>)[ours];
    const names = [member && `${member} (member post)`, page && `${page} (Page post)`].filter(Boolean);
    return [ours, names.join(', ')];
  }),
);
