import { defineNetwork } from '../definition.js';
import { tiktokOptions } from './options-schema.js';
import { tiktokRules } from './rules.js';

/** TikTok as data (../definition.ts): what the rest of the service may know of it. */
export const tiktokDefinition = defineNetwork({
  platform: 'tiktok',
  displayName: 'TikTok',
  aliases: [],
  postTypes: ['video', 'carousel'],
  rules: tiktokRules,
  platformOptions: tiktokOptions,
  warningExamples: { PLATFORM_POST_ID_PENDING: 'TikTok, after moderation' },
  sandboxHandle: '@sandbox.shorts',
  dailyQuota: { limit: 10, unit: 'posts', costPerPost: 1 },
  // TikTok hands a public post's id out only once its moderation approves it (docs/networks.md).
  lateIdNotes: {
    pending: 'TikTok names a public post only once its moderation approves it, sometimes hours later',
    unavailable:
      'on TikTok: moderation did not approve it for public viewing, or the creator changed who can see it',
  },
  apps: ['TIKTOK'],
  endpoints: {
    TIKTOK_API_URL: 'https://open.tiktokapis.com',
    TIKTOK_AUTHORIZE_URL: 'https://www.tiktok.com/v2/auth/authorize/',
  },
});
