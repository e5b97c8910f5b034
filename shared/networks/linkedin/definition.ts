import { defineNetwork } from '../definition.js';
import { LINKEDIN_COMMENT_SCOPES } from './comment-scopes.js';
import {
  LINKEDIN_METRIC_FIELD_NAMES,
  LINKEDIN_METRICS_BATCH_SIZE,
  LINKEDIN_PAGE_POSTS_PER_REQUEST,
  LINKEDIN_PAGE_STATISTICS_SCOPE,
  LINKEDIN_POST_ANALYTICS_SCOPE,
  LINKEDIN_PROFILE_ANALYTICS_SCOPE,
} from './metrics-fields.js';
import { linkedInPostMetricsScopes } from './metrics-scopes.js';
import { linkedInOptions } from './options-schema.js';
import { linkedInRules } from './rules.js';

/**
 * A comment's most characters: 1,250, the figure LinkedIn's partners document (LinkedIn's
 * Comments API page states none).
 */
export const LINKEDIN_COMMENT_MAX_LENGTH = 1250;

/** LinkedIn as data (../definition.ts): what the rest of the service may know of it. */
export const linkedinDefinition = defineNetwork({
  platform: 'linkedin',
  displayName: 'LinkedIn',
  aliases: [],
  postTypes: ['text', 'image', 'video', 'document', 'carousel'],
  rules: linkedInRules,
  platformOptions: linkedInOptions,
  sandboxHandle: 'sandbox-professional',
  dailyQuota: { limit: 100, unit: 'posts', costPerPost: 1 },
  apps: [
    // A member app (Sign In with OpenID Connect + Share on LinkedIn), and a Community Management
    // app, which LinkedIn allows no other product beside (apps.ts chooses between them).
    'LINKEDIN',
    'LINKEDIN_COMMUNITY',
  ],
  // Posting as a Page needs the Community Management app: a caller picks the kind at connect
  // (docs/networks.md "Two kinds of LinkedIn app"; the scopes of each are in oauth.ts).
  appChoice: {
    field: 'linkedinApp',
    kinds: { member: 'LINKEDIN', community: 'LINKEDIN_COMMUNITY' },
    connectDescription:
      'member (Sign In with LinkedIn + Share on LinkedIn) posts as the member; community (the Community Management API) posts as the member and as the Pages they manage. Default: member when the deployment has that app, else community.',
    accountDescription: 'Only a community account can post as a Page (platformOptions.linkedin.author).',
    connectNote: 'only an account connected through the community app can post as a Page.',
    dashboardChoices: { community: 'LinkedIn Pages (Community Management app)' },
  },
  examplePublished: {
    platformPostId: 'urn:li:share:7302154837465296896',
    platformPostUrl: 'https://www.linkedin.com/feed/update/urn:li:share:7302154837465296896',
  },
  // A member's own posts and followers, and a Page's posts (docs/metrics.md "LinkedIn"): only an
  // account connected through the Community Management app can be granted these; a member app's
  // account answers missing_scopes naming them.
  metrics: {
    scopes: [LINKEDIN_POST_ANALYTICS_SCOPE, LINKEDIN_PROFILE_ANALYTICS_SCOPE, LINKEDIN_PAGE_STATISTICS_SCOPE],
    // A post needs one of them, by its author (member or Page).
    postScopes: linkedInPostMetricsScopes,
    // The member's follower count (memberFollowersCount) needs its own scope alone.
    accountScopes: [LINKEDIN_PROFILE_ANALYTICS_SCOPE],
    batchSize: LINKEDIN_METRICS_BATCH_SIZE,
    fields: { ...LINKEDIN_METRIC_FIELD_NAMES, followers: 'memberFollowersCount' },
    source: `A member post: GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:{urn})&queryType={type}&aggregation=TOTAL, one post and one queryType a request. A Page post: GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity={page}&shares=List({urn},…), up to ${LINKEDIN_PAGE_POSTS_PER_REQUEST} a request. Followers: GET /rest/memberFollowersCount?q=me.`,
    cost: `Six requests a member post (one per queryType), one per ${LINKEDIN_PAGE_POSTS_PER_REQUEST} Page posts, counted against LinkedIn’s daily per-member and per-app limits (reset at midnight UTC).`,
  },
  // Comments API (docs/networks.md "First comment"): only an account of the Community Management
  // app holds the comment scopes; a member app's is told to reconnect through it.
  firstComment: {
    maxLength: LINKEDIN_COMMENT_MAX_LENGTH,
    mediaKinds: [],
    maxMedia: 0,
    scopes: LINKEDIN_COMMENT_SCOPES,
    how: 'a comment on the post by its author (the member, or the Page it was posted as), through the Comments API; needs an account connected through the Community Management app',
  },
  // LinkedIn does not read the page: the article card is ours (article.ts), on a text post alone.
  linkPreview: { card: 'ours', postTypes: ['text'], withMedia: false },
  warningExamples: {
    LINK_THUMBNAIL_DROPPED:
      "a LinkedIn article share published without its card's image: the image could not be read or LinkedIn did not take it",
  },
  endpoints: {
    LINKEDIN_API_URL: 'https://api.linkedin.com',
    LINKEDIN_OAUTH_URL: 'https://www.linkedin.com/oauth/v2',
  },
});
