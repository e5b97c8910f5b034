/** Non-final chunks of a resumable upload are multiples of 256 KiB (youtube.md §1). */
export const YOUTUBE_CHUNK_UNIT = 256 * 1024;
/** What one PUT carries by default: 32 units (8 MiB), a few seconds each on a fair link. */
export const YOUTUBE_DEFAULT_CHUNK_BYTES = 32 * YOUTUBE_CHUNK_UNIT;
/**
 * How long one invocation keeps uploading before it hands over (`pending` with the session and
 * offset): well inside the worker's time-out, so the next invocation continues where this stopped.
 */
export const YOUTUBE_UPLOAD_BUDGET_MS = 30_000;
/** After an interruption mid-upload: ask for the received range again shortly. */
export const YOUTUBE_RESUME_AFTER_SECONDS = 5;
/** When the next chunk may go at once: the upload continues in the next invocation. */
export const YOUTUBE_CONTINUE_AFTER_SECONDS = 1;
/** YouTube says nothing about how long processing takes; a check every 30 s is 2 units a minute. */
export const YOUTUBE_PROCESSING_CHECK_SECONDS = 30;
/** The channel's 24-hour upload cap (`uploadLimitExceeded`): try again a day later. */
export const YOUTUBE_UPLOAD_LIMIT_RETRY_SECONDS = 24 * 60 * 60;
/** Short throttling (`rateLimitExceeded`, `userRateLimitExceeded`): a minute. */
export const YOUTUBE_RATE_LIMIT_RETRY_SECONDS = 60;

/**
 * Seconds until the next midnight in Pacific time, when the project's daily quota resets
 * (youtube.md §2); the offset comes from the time-zone database, so daylight saving is right.
 */
export function secondsUntilPacificMidnight(nowMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(nowMs));
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const elapsed = value('hour') * 3600 + value('minute') * 60 + value('second');
  return Math.max(1, 24 * 3600 - elapsed);
}

/** The most video ids one videos.list takes (comma-separated `id`); more are read in several calls. */
export const YOUTUBE_METRICS_BATCH_SIZE = 50;
