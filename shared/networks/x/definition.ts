import { defineNetwork } from '../definition.js';
import { X_METRICS_BATCH_SIZE, X_METRICS_SCOPES, X_POST_METRIC_FIELDS } from './metrics-fields.js';
import { xOptions } from './options-schema.js';
import { X_MAX_IMAGES, X_MAX_WEIGHTED_LENGTH, xRules } from './rules.js';

/** X as data (../definition.ts): what the rest of the service may know of it. */
export const xDefinition = defineNetwork({
  platform: 'twitter',
  displayName: 'X',
  aliases: ['x'],
  postTypes: ['text', 'image', 'video', 'thread'],
  rules: xRules,
  platformOptions: xOptions,
  sandboxHandle: '@sandbox_short',
  dailyQuota: { limit: 2400, unit: 'posts', costPerPost: 1 },
  apps: ['X'],
  endpoints: {
    X_API_URL: 'https://api.x.com',
    X_AUTHORIZE_URL: 'https://x.com/i/oauth2/authorize',
  },
  firstComment: {
    maxLength: X_MAX_WEIGHTED_LENGTH,
    mediaKinds: ['image', 'video'],
    maxMedia: X_MAX_IMAGES,
    how: 'a reply from the same account to the post (POST /2/tweets with reply.in_reply_to_tweet_id), media uploaded as for a post',
  },
  // X reads the card from the page itself: the URL goes in the first tweet's text (link-text.ts).
  linkPreview: { card: 'network', postTypes: ['text', 'image', 'video', 'thread'], withMedia: true },
  metrics: {
    scopes: X_METRICS_SCOPES,
    batchSize: X_METRICS_BATCH_SIZE,
    fields: Object.fromEntries(
      Object.entries(X_POST_METRIC_FIELDS).map(([ours, theirs]) => [ours, `public_metrics.${theirs}`]),
    ),
    source:
      'GET /2/tweets?ids=<up to 100>&tweet.fields=public_metrics (posts); GET /2/users/me?user.fields=public_metrics (followers_count, following_count, tweet_count)',
    cost: "Paid per read on X's pay-per-use pricing: each post returned is one Posts: Read and the account read one User: Read (https://docs.x.com/x-api/getting-started/pricing); a resource read again within the same UTC day is not charged again. Collected only for workspaces whose setting names X.",
    paidPerRead: true,
  },
});
