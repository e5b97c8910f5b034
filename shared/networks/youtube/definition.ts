import { defineNetwork } from '../definition.js';
import { YOUTUBE_METRICS_BATCH_SIZE } from './limits.js';
import { youtubeOptions } from './options-schema.js';
import { youtubeRules } from './rules.js';
import { YOUTUBE_COMMENT_ONLY_SCOPES, YOUTUBE_METRICS_SCOPES, YOUTUBE_STATISTICS_SCOPES } from './scopes.js';

/** YouTube as data (../definition.ts): what the rest of the service may know of it. */
export const youtubeDefinition = defineNetwork({
  platform: 'youtube',
  displayName: 'YouTube',
  aliases: [],
  postTypes: ['video', 'short'],
  rules: youtubeRules,
  platformOptions: youtubeOptions,
  warningExamples: {
    PLATFORM_VISIBILITY_CHANGED: 'YouTube locks uploads of an unaudited API project private',
    PRIVATE_UNTIL_PUBLISH_AT:
      'The video is on YouTube but stays private until 2026-12-01T15:00:00.000Z, when YouTube makes it public (its scheduled publishing).',
    THUMBNAIL_NOT_SET:
      'The video is published without its custom thumbnail: YouTube does not let this channel set custom thumbnails (the channel must be verified, e.g. by phone at https://www.youtube.com/verify).',
    PLAYLIST_NOT_ADDED:
      'The video is published but not added to playlist PLx1y2z3: the account was connected without the youtube.force-ssl permission that adding to a playlist needs: reconnect it.',
    CAPTIONS_NOT_ADDED:
      'The video is published without its caption track "English": the account was connected without the youtube.force-ssl permission that adding captions needs: reconnect it.',
  },
  // A top-level comment by the channel (commentThreads.insert), text only, on a public or unlisted
  // video (option-rules.ts); 10,000 characters is the commonly quoted limit (the reference names none).
  firstComment: {
    maxLength: 10_000,
    mediaKinds: [],
    maxMedia: 0,
    scopes: YOUTUBE_COMMENT_ONLY_SCOPES,
    how: 'a top-level comment by the channel on its video (commentThreads.insert); text only, on a public or unlisted video',
  },
  sandboxHandle: 'SandboxChannel',
  dailyQuota: { limit: 10_000, unit: 'quota_units', costPerPost: 1600 },
  // YouTube counts units per Google Cloud project (this deployment's app), not per account.
  projectQuotaCounter: 'youtube-project',
  usageNotes: {
    project:
      "today's use of the Google project's units by every account together, same day and unit; a delivery past it fails with PROJECT_QUOTA_EXCEEDED.",
  },
  // Google grants a project more units on request, and an upload's cost has changed before
  // (docs/networks.md "Video network", "Quota").
  quotaSettings: { limit: 'YOUTUBE_DAILY_QUOTA_UNITS', costPerPost: 'YOUTUBE_UPLOAD_COST_UNITS' },
  apps: [
    // Google's app serves YouTube.
    'GOOGLE',
  ],
  // Statistics of the channel's own videos and of the channel, and the videos' watch time from the
  // Analytics API under its own scope (docs/metrics.md "YouTube").
  metrics: {
    scopes: YOUTUBE_METRICS_SCOPES,
    // A post's reading needs the statistics alone: without the Analytics scope it lacks only watch
    // time. The channel's numbers are statistics too.
    postScopes: () => YOUTUBE_STATISTICS_SCOPES,
    accountScopes: YOUTUBE_STATISTICS_SCOPES,
    batchSize: YOUTUBE_METRICS_BATCH_SIZE,
    fields: {
      views: 'statistics.viewCount',
      likes: 'statistics.likeCount',
      comments: 'statistics.commentCount',
      watchTimeSeconds: 'estimatedMinutesWatched × 60 (Analytics API)',
      averageViewPercent: 'averageViewPercentage (Analytics API)',
      'account.followers': 'statistics.subscriberCount (not when hiddenSubscriberCount)',
      'account.views': 'statistics.viewCount',
      'account.posts': 'statistics.videoCount',
    },
    source:
      'GET /youtube/v3/videos?part=statistics&id=<up to 50 ids>; GET /v2/reports?ids=channel==MINE&startDate=2005-02-14&endDate=<today, Pacific>&metrics=estimatedMinutesWatched,averageViewPercentage&dimensions=video&filters=video==<the same ids> (YouTube Analytics API); GET /youtube/v3/channels?part=statistics&mine=true',
    cost: "1 quota unit a videos.list or channels.list call (50 videos), from the Google project's daily units shared with uploads; a read goes only while one upload's units stay free (services/metrics/read-units.ts). The Analytics report costs no Data API units (a separate API with its own quota)",
  },
  endpoints: {
    YOUTUBE_API_URL: 'https://www.googleapis.com/youtube/v3',
    YOUTUBE_UPLOAD_URL: 'https://www.googleapis.com/upload/youtube/v3',
    YOUTUBE_ANALYTICS_API_URL: 'https://youtubeanalytics.googleapis.com/v2',
    GOOGLE_AUTHORIZE_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
    GOOGLE_TOKEN_URL: 'https://oauth2.googleapis.com/token',
  },
});
