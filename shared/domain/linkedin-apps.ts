/**
 * The two kinds of LinkedIn developer app an account can be connected through (docs/networks.md
 * "Two kinds of LinkedIn app"). LinkedIn's portal lets the Community Management API be the only
 * product on its app, so posting as a Page needs an app of its own:
 * - `member`: Sign In with LinkedIn using OpenID Connect + Share on LinkedIn; posts as the member;
 * - `community`: the Community Management API; posts as the member and as the Pages they manage.
 */
export const LINKEDIN_APP_KINDS = ['member', 'community'] as const;
export type LinkedInAppKind = (typeof LINKEDIN_APP_KINDS)[number];
