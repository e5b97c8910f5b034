import { defineNetwork } from '../definition.js';
import { BLUESKY_DAILY_POSTS, BLUESKY_MAX_GRAPHEMES, BLUESKY_MAX_IMAGES } from './limits.js';
import { BLUESKY_METRICS_BATCH_SIZE, BLUESKY_POST_METRIC_FIELDS } from './metrics-fields.js';
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
  firstComment: {
    maxLength: BLUESKY_MAX_GRAPHEMES,
    mediaKinds: ['image', 'video'],
    maxMedia: BLUESKY_MAX_IMAGES,
    how: 'a reply record from the same account (root and parent the post), media embedded as in a post; its record key chosen before it is sent, so a look-up is exact',
  },
  // We build the card (link-card.ts): the post's title, description and thumbnail, else the page's.
  // A post embeds one thing, so a card goes on a text post without media.
  linkPreview: { card: 'ours', postTypes: ['text'], withMedia: false },
  metrics: {
    // transition:generic, asked at connect anyway, covers the AppView reads through the PDS.
    scopes: [],
    batchSize: BLUESKY_METRICS_BATCH_SIZE,
    fields: { ...BLUESKY_POST_METRIC_FIELDS },
    source:
      "GET {pds}/xrpc/app.bsky.feed.getPosts?uris=<up to 25 AT-URIs> (posts); GET {pds}/xrpc/app.bsky.actor.getProfile?actor=<did> (followersCount, followsCount, postsCount), both passed to the AppView by the account's PDS (atproto-proxy)",
    cost: 'No money; counted against the PDS’s per-IP request limit (3,000 per 5 minutes). Counts are eventually consistent; Bluesky has no impressions, views or clicks.',
  },
  examplePublished: {
    platformPostId: 'at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3lx7abcdefg22',
    platformPostUrl: 'https://bsky.app/profile/did:plc:ewvi7nxzyoun6zhxrhs64oiz/post/3lx7abcdefg22',
  },
});
