import { defineNetwork } from '../definition.js';

/** TikTok as data (../definition.ts): what the rest of the service may know of it. */
export const tiktokDefinition = defineNetwork({
  platform: 'tiktok',
  displayName: 'TikTok',
  aliases: [],
  postTypes: ['video', 'carousel'],
  sandboxHandle: '@sandbox.shorts',
  dailyQuota: { limit: 10, unit: 'posts', costPerPost: 1 },
  apps: ['TIKTOK'],
  endpoints: {
    TIKTOK_API_URL: 'https://open.tiktokapis.com',
    TIKTOK_AUTHORIZE_URL: 'https://www.tiktok.com/v2/auth/authorize/',
  },
});
