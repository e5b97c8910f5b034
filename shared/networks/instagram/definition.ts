import { defineNetwork } from '../definition.js';

/** Instagram as data (../definition.ts): what the rest of the service may know of it. */
export const instagramDefinition = defineNetwork({
  platform: 'instagram',
  displayName: 'Instagram',
  aliases: [],
});
