import type { DailyQuota } from '../definition.js';

/** What one statistics read costs of the project's daily units (videos.list, channels.list). */
export const YOUTUBE_METRICS_READ_UNITS = 1;
/** How many uploads' worth of units the metrics always leave for uploads. */
export const YOUTUBE_METRICS_RESERVED_UPLOADS = 2;

/**
 * Whether a metrics read may spend project units now (docs/metrics.md "YouTube"). The units are
 * the Google project's, shared with uploads, and uploads keep priority: a read goes only while,
 * after it, the project still has two uploads' worth left (3,200 of the default 10,000). A day's
 * metrics cost little (one unit reads 50 videos), so the reserve only bites on a day the uploads
 * themselves are near the quota; the reads then wait for the next day's units.
 */
export function youtubeMetricsMayRead(
  projectUnitsUsedToday: number,
  quota: Pick<DailyQuota, 'limit' | 'costPerPost'>,
  reads = 1,
): boolean {
  const reserve = YOUTUBE_METRICS_RESERVED_UPLOADS * quota.costPerPost;
  return projectUnitsUsedToday + reads * YOUTUBE_METRICS_READ_UNITS <= quota.limit - reserve;
}
