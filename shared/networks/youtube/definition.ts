import { defineNetwork } from '../definition.js';

/** YouTube as data (../definition.ts): what the rest of the service may know of it. */
export const youtubeDefinition = defineNetwork({
  platform: 'youtube',
  displayName: 'YouTube',
  aliases: [],
  postTypes: ['video', 'short'],
  sandboxHandle: 'SandboxChannel',
  dailyQuota: { limit: 10_000, unit: 'quota_units', costPerPost: 1600 },
  // YouTube counts units per Google Cloud project (this deployment's app), not per account.
  projectQuotaCounter: 'youtube-project',
  apps: [
    // Google's app serves YouTube.
    'GOOGLE',
  ],
  endpoints: {
    YOUTUBE_API_URL: 'https://www.googleapis.com/youtube/v3',
    YOUTUBE_UPLOAD_URL: 'https://www.googleapis.com/upload/youtube/v3',
    GOOGLE_AUTHORIZE_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
    GOOGLE_TOKEN_URL: 'https://oauth2.googleapis.com/token',
  },
});
