/**
 * The Comments API's scopes on current versions (its page from version 202508 on names these, no
 * longer `w_member_social` / `w_organization_social`): commenting as the member, as a Page, and
 * reading a Page post's comments to settle an unknown outcome. The Community Management API grants
 * them; Share on LinkedIn does not, so a member app's accounts cannot comment.
 */
export const LINKEDIN_COMMENT_SCOPES = [
  'w_member_social_feed',
  'w_organization_social_feed',
  'r_organization_social_feed',
] as const;
