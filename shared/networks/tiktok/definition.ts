import { defineNetwork } from '../definition.js';

/** TikTok as data (../definition.ts): what the rest of the service may know of it. */
export const tiktokDefinition = defineNetwork({
  platform: 'tiktok',
  displayName: 'TikTok',
  aliases: [],
});
