/**
 * Google's OAuth scopes the service asks for YouTube (networks/youtube.md §6), in one place so the
 * OAuth declaration and the metrics' data in the definition name the same strings.
 */
export const YOUTUBE_UPLOAD_SCOPE = 'https://www.googleapis.com/auth/youtube.upload';
/**
 * Reads the channel and its videos: the profile, processing status, and the statistics of the
 * channel's own videos and of the channel (videos.list and channels.list with part=statistics).
 */
export const YOUTUBE_READONLY_SCOPE = 'https://www.googleapis.com/auth/youtube.readonly';

/**
 * What the metrics need: read-only access alone. Watch time and average view percentage would need
 * the YouTube Analytics API's `yt-analytics.readonly`; they are not collected (docs/metrics.md), so
 * that scope is not asked for.
 */
export const YOUTUBE_METRICS_SCOPES = [YOUTUBE_READONLY_SCOPE] as const;
