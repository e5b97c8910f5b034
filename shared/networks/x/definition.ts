import { defineNetwork } from '../definition.js';
import { xOptions } from './options-schema.js';
import { xRules } from './rules.js';

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
});
