import { LINKEDIN_PAGE_STATISTICS_SCOPE, LINKEDIN_POST_ANALYTICS_SCOPE } from './metrics-fields.js';
import { LINKEDIN_MEMBER_AUTHOR, linkedInOptionsSchema } from './options-schema.js';

/** A post's stored platformOptions (all networks'), as the definition hands them over. */
type StoredOptions = Readonly<Record<string, unknown>> | undefined;

/** The Page a post was published as, from its options; undefined: the member's own post. */
export function linkedInPageOf(platformOptions: StoredOptions): string | undefined {
  const parsed = linkedInOptionsSchema.safeParse(platformOptions?.linkedin ?? {});
  const author = parsed.success ? parsed.data.author : undefined;
  return author && author !== LINKEDIN_MEMBER_AUTHOR ? author : undefined;
}

/**
 * What one post's metrics need, by its author: a Page's post is read through Organization Share
 * Statistics (rw_organization_admin alone), a member's own through Member Post Analytics
 * (r_member_postAnalytics alone). The follower count's scope is the account's, not a post's.
 */
export function linkedInPostMetricsScopes(platformOptions: StoredOptions): readonly string[] {
  return linkedInPageOf(platformOptions) ? [LINKEDIN_PAGE_STATISTICS_SCOPE] : [LINKEDIN_POST_ANALYTICS_SCOPE];
}
