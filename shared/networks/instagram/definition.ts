import { defineNetwork } from '../definition.js';
import { instagramFirstComment } from './first-comment.js';
import { instagramMetrics } from './metrics-fields.js';
import { instagramOptions } from './options-schema.js';
import { instagramRules } from './rules.js';

/** Instagram as data (../definition.ts): what the rest of the service may know of it. */
export const instagramDefinition = defineNetwork({
  platform: 'instagram',
  displayName: 'Instagram',
  aliases: [],
  postTypes: ['image', 'carousel', 'reel', 'story'],
  rules: instagramRules,
  platformOptions: instagramOptions,
  sandboxHandle: 'sandbox.photos',
  dailyQuota: { limit: 25, unit: 'posts', costPerPost: 1 },
  // The connector reads content_publishing_limit: the account read shows it.
  reportsOwnQuota: true,
  usageNotes: {
    network:
      "the network's own count of the account's posts (content_publishing_limit) as last read before a publish; absent until one was read in the last two days. Posts made outside the service count too.",
    networkWindow: 'Instagram’s is a rolling 24 hours.',
  },
  apps: ['INSTAGRAM'],
  endpoints: {
    INSTAGRAM_GRAPH_URL: 'https://graph.instagram.com',
    INSTAGRAM_OAUTH_URL: 'https://api.instagram.com/oauth',
    /** The consent page is on another host than the token endpoint (INSTAGRAM_OAUTH_URL). */
    INSTAGRAM_AUTHORIZE_URL: 'https://www.instagram.com/oauth/authorize',
  },
  metrics: instagramMetrics,
  firstComment: instagramFirstComment,
  // No linkPreview: Instagram shows no link cards (captions' links are not even clickable).
});
