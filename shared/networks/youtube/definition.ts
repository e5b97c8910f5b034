import { defineNetwork } from '../definition.js';

/** YouTube as data (../definition.ts): what the rest of the service may know of it. */
export const youtubeDefinition = defineNetwork({
  platform: 'youtube',
  displayName: 'YouTube',
  aliases: [],
});
