import { defineNetwork } from '../definition.js';

/** LinkedIn as data (../definition.ts): what the rest of the service may know of it. */
export const linkedinDefinition = defineNetwork({
  platform: 'linkedin',
  displayName: 'LinkedIn',
  aliases: [],
});
