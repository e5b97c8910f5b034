import { defineNetwork } from '../definition.js';

/** X as data (../definition.ts): what the rest of the service may know of it. */
export const xDefinition = defineNetwork({
  platform: 'twitter',
  displayName: 'X',
  aliases: ['x'],
});
