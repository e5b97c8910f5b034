import { defineNetwork } from '../definition.js';
import {
  TIKTOK_ACCOUNT_FIELDS,
  TIKTOK_METRICS_SCOPES,
  TIKTOK_POST_FIELDS,
  TIKTOK_USER_STATS_SCOPE,
  TIKTOK_VIDEO_QUERY_BATCH,
} from './metrics-fields.js';
import { tiktokOptions } from './options-schema.js';
import { tiktokRules } from './rules.js';

/** TikTok as data (../definition.ts): what the rest of the service may know of it. */
export const tiktokDefinition = defineNetwork({
  platform: 'tiktok',
  displayName: 'TikTok',
  aliases: [],
  postTypes: ['video', 'carousel'],
  rules: tiktokRules,
  platformOptions: tiktokOptions,
  warningExamples: {
    PLATFORM_POST_ID_PENDING: 'TikTok, after moderation',
    TEXT_NOT_SENT_TO_INBOX: "TikTok, a video sent to the creator's inbox (mode inbox): no caption travels",
  },
  sandboxHandle: '@sandbox.shorts',
  dailyQuota: { limit: 10, unit: 'posts', costPerPost: 1 },
  // TikTok hands a public post's id out only once its moderation approves it (docs/networks.md).
  lateIdNotes: {
    pending: 'TikTok names a public post only once its moderation approves it, sometimes hours later',
    unavailable:
      'on TikTok: moderation did not approve it for public viewing, or the creator changed who can see it',
  },
  // TikTok's Display API: no reach, impressions or watch time for a creator's own videos there.
  metrics: {
    scopes: TIKTOK_METRICS_SCOPES,
    // The account's counts (GET /v2/user/info/) need user.info.stats alone, not video.list.
    accountScopes: [TIKTOK_USER_STATS_SCOPE],
    batchSize: TIKTOK_VIDEO_QUERY_BATCH,
    fields: {
      ...TIKTOK_POST_FIELDS,
      ...Object.fromEntries(
        Object.entries(TIKTOK_ACCOUNT_FIELDS).map(([ours, theirs]) => [`account.${ours}`, theirs]),
      ),
    },
    source:
      'POST /v2/video/query/?fields=id,view_count,like_count,comment_count,share_count (video.list, up to 20 ids); GET /v2/user/info/?fields=follower_count,following_count,likes_count,video_count (user.info.stats)',
    cost: 'Free; 600 requests a minute for each endpoint (a one-minute sliding window).',
  },
  apps: ['TIKTOK'],
  endpoints: {
    TIKTOK_API_URL: 'https://open.tiktokapis.com',
    TIKTOK_AUTHORIZE_URL: 'https://www.tiktok.com/v2/auth/authorize/',
  },
});
