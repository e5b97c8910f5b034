import { defineNetwork } from '../definition.js';
import { BLUESKY_DAILY_POSTS } from './limits.js';
import { blueskyOptions } from './options-schema.js';
import { blueskyRules } from './rules.js';

/** Bluesky (AT Protocol) as data (../definition.ts): what the rest of the service may know of it. */
export const blueskyDefinition = defineNetwork({
  platform: 'bluesky',
  displayName: 'Bluesky',
  aliases: [],
  postTypes: ['text', 'image', 'video', 'thread'],
  rules: blueskyRules,
  platformOptions: blueskyOptions,
  sandboxHandle: '@sandbox.bsky.social',
  // 35,000 write points a day per account, 3 a created record (limits.ts).
  dailyQuota: { limit: BLUESKY_DAILY_POSTS, unit: 'posts', costPerPost: 1 },
  apps: ['BLUESKY'],
  endpoints: {
    // The authorization server a connect starts at (the entryway); each account's PDS is found from its DID.
    BLUESKY_ENTRYWAY_URL: 'https://bsky.social',
    BLUESKY_PLC_URL: 'https://plc.directory',
    BLUESKY_VIDEO_URL: 'https://video.bsky.app',
  },
  examplePublished: {
    platformPostId: 'at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3lx7abcdefg22',
    platformPostUrl: 'https://bsky.app/profile/did:plc:ewvi7nxzyoun6zhxrhs64oiz/post/3lx7abcdefg22',
  },
});
