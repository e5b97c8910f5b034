import { defineNetwork } from '../definition.js';

/** X as data (../definition.ts): what the rest of the service may know of it. */
export const xDefinition = defineNetwork({
  platform: 'twitter',
  displayName: 'X',
  aliases: ['x'],
  postTypes: ['text', 'image', 'video', 'thread'],
  sandboxHandle: '@sandbox_short',
  dailyQuota: { limit: 2400, unit: 'posts', costPerPost: 1 },
  apps: ['X'],
  endpoints: {
    X_API_URL: 'https://api.x.com',
    X_AUTHORIZE_URL: 'https://x.com/i/oauth2/authorize',
  },
});
