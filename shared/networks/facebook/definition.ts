import { defineNetwork } from '../definition.js';
import { facebookFirstComment, facebookLinkPreview } from './first-comment.js';
import { facebookMetrics } from './metrics-fields.js';
import { facebookOptions } from './options-schema.js';
import { facebookRules } from './rules.js';

/** Facebook Pages as data (../definition.ts): what the rest of the service may know of it. */
export const facebookDefinition = defineNetwork({
  platform: 'facebook',
  displayName: 'Facebook',
  aliases: [],
  postTypes: ['text', 'image', 'carousel', 'video', 'reel'],
  rules: facebookRules,
  platformOptions: facebookOptions,
  sandboxHandle: 'sandbox.page',
  // Meta documents no count for feed posts, photos and videos; reels are 30 per Page per rolling
  // 24 hours (facebook-pages.md §4): the one documented number is our ceiling for every post.
  dailyQuota: { limit: 30, unit: 'posts', costPerPost: 1 },
  // A Page that posts more feed posts than that a day sets its own ceiling (docs/networks.md).
  quotaSettings: { limit: 'FACEBOOK_DAILY_POSTS', costPerPost: 'FACEBOOK_POST_COST' },
  apps: ['FACEBOOK'],
  endpoints: {
    /** Everything but the consent page and the upload hosts (the version is the connector's). */
    FACEBOOK_GRAPH_URL: 'https://graph.facebook.com',
    /** The consent page: versioned, on www.facebook.com. */
    FACEBOOK_AUTHORIZE_URL: 'https://www.facebook.com/v24.0/dialog/oauth',
    /** Feed videos are posted to the video host. */
    FACEBOOK_GRAPH_VIDEO_URL: 'https://graph-video.facebook.com',
    /** A reel's bytes (here: the URL Meta fetches them from) go to the resumable upload host. */
    FACEBOOK_RUPLOAD_URL: 'https://rupload.facebook.com',
  },
  metrics: facebookMetrics,
  firstComment: facebookFirstComment,
  linkPreview: facebookLinkPreview,
});
