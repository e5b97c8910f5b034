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

/** The member's post statistics (memberCreatorPostAnalytics): Community Management API only. */
export const LINKEDIN_POST_ANALYTICS_SCOPE = 'r_member_postAnalytics';
/** The member's follower count (memberFollowersCount): Community Management API only. */
export const LINKEDIN_PROFILE_ANALYTICS_SCOPE = 'r_member_profileAnalytics';

/** The member finder takes one post (`entity`) and one `queryType` a request. */
export const LINKEDIN_METRICS_BATCH_SIZE = 1;
