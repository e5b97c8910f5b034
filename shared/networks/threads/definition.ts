import { defineNetwork } from '../definition.js';
import { threadsFirstComment, threadsLinkPreview } from './first-comment.js';
import { THREADS_DAILY_POSTS } from './limits.js';
import { threadsMetrics } from './metrics-fields.js';
import { threadsOptions } from './options-schema.js';
import { threadsRules } from './rules.js';

/** Threads as data (../definition.ts): what the rest of the service may know of it. */
export const threadsDefinition = defineNetwork({
  platform: 'threads',
  displayName: 'Threads',
  aliases: [],
  postTypes: ['text', 'image', 'video', 'carousel', 'thread'],
  rules: threadsRules,
  platformOptions: threadsOptions,
  sandboxHandle: '@sandbox.threads',
  dailyQuota: { limit: THREADS_DAILY_POSTS, unit: 'posts', costPerPost: 1 },
  // The connector reads threads_publishing_limit: the account read shows it.
  reportsOwnQuota: true,
  usageNotes: {
    network:
      "the network's own count of the account's posts (threads_publishing_limit) as last read before a publish; absent until one was read in the last two days. Posts made outside the service count too.",
    networkWindow: 'Threads’ is a rolling 24 hours.',
  },
  apps: ['THREADS'],
  endpoints: {
    /** The Graph host: the API, the code exchange (`/oauth/access_token`) and the token exchanges. */
    THREADS_GRAPH_URL: 'https://graph.threads.net',
    /** The consent page, on the web host. */
    THREADS_AUTHORIZE_URL: 'https://threads.net/oauth/authorize',
  },
  metrics: threadsMetrics,
  firstComment: threadsFirstComment,
  linkPreview: threadsLinkPreview,
});
