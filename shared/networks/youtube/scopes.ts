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
 * The YouTube Analytics API's read-only reports (reports.query): watch time and average view
 * percentage, which the Data API does not give. Asked only for the metrics.
 */
export const YOUTUBE_ANALYTICS_SCOPE = 'https://www.googleapis.com/auth/yt-analytics.readonly';

/**
 * What the metrics need: the read-only scope for the statistics (views, likes, comments, the
 * channel's numbers) and the Analytics scope for watch time and average view percentage.
 */
export const YOUTUBE_METRICS_SCOPES = [YOUTUBE_READONLY_SCOPE, YOUTUBE_ANALYTICS_SCOPE] as const;
/**
 * Of those, the ones asked only for the metrics: publishing needs the read-only scope too (the
 * profile, processing), so an app not approved for the metrics' scopes still asks for it.
 */
export const YOUTUBE_METRICS_ONLY_SCOPES = [YOUTUBE_ANALYTICS_SCOPE] as const;
/**
 * What the statistics need: a post's reading without the Analytics scope still has its views,
 * likes and comments, only not its watch time (the account shows the scope missing); the
 * channel's numbers need nothing more.
 */
export const YOUTUBE_STATISTICS_SCOPES = [YOUTUBE_READONLY_SCOPE] as const;
/**
 * "See, edit, and permanently delete your YouTube videos, ratings, comments and captions": the one
 * scope commentThreads.insert lists, and one playlistItems.insert takes (`youtube.upload` is not
 * enough for either). Asked for first comments; playlists use it when granted.
 */
export const YOUTUBE_FORCE_SSL_SCOPE = 'https://www.googleapis.com/auth/youtube.force-ssl';
/**
 * Asked only for first comments: an operator whose app is not approved for this sensitive scope
 * turns it off (askCommentScopes false), and then playlists are not added either (a warning says so).
 */
export const YOUTUBE_COMMENT_ONLY_SCOPES = [YOUTUBE_FORCE_SSL_SCOPE] as const;
