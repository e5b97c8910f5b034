import * as z from 'zod';
import { cleanMetricValues, POST_METRIC_NAMES, type PostMetricValues } from '../../domain/metrics.js';

/** The YouTube Analytics API's names of the two metrics read (reports.query `metrics`). */
export const ANALYTICS_METRICS = ['estimatedMinutesWatched', 'averageViewPercentage'] as const;
/** The most ids one `filters=video==…` takes (reports.query, "Specifying multiple values for a filter"). */
export const ANALYTICS_MAX_VIDEO_IDS = 500;
/**
 * The first day a report covers: YouTube's own first day, so the report sums a video's whole life
 * whatever its publish date (days before a video existed add nothing).
 */
const LIFETIME_START = '2005-02-14';

/**
 * reports.query's answer: a result table, its columns named in `columnHeaders` and one row per
 * video that has data. `rows` is absent when none has (a video only hours old: the Analytics
 * data lag a day or more behind).
 */
export const AnalyticsResultTable = z.object({
  columnHeaders: z.array(z.object({ name: z.string() })),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))).default([]),
});

/** A day as reports.query takes it (YYYY-MM-DD), in Pacific time as YouTube Analytics counts days. */
export function pacificDate(nowMs: number): string {
  // en-CA formats a date as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Los_Angeles',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(nowMs));
}

/**
 * The query of one report: the token's channel (`ids=channel==MINE`), the videos' whole life up to
 * today, one row per video (`dimensions=video`) among those named (`filters=video==a,b`).
 */
export function analyticsQuery(videoIds: readonly string[], nowMs: number): Record<string, string> {
  return {
    ids: 'channel==MINE',
    startDate: LIFETIME_START,
    endDate: pacificDate(nowMs),
    metrics: ANALYTICS_METRICS.join(','),
    dimensions: 'video',
    filters: `video==${videoIds.join(',')}`,
  };
}

/**
 * Each video's watch time and average view percentage in our vocabulary, by video id, from a
 * result table (columns found by name, not position). estimatedMinutesWatched is whole minutes:
 * watchTimeSeconds is that times 60. A video without a row is not in the map.
 */
export function analyticsByVideo(table: z.infer<typeof AnalyticsResultTable>): Map<string, PostMetricValues> {
  const column = (name: string) => table.columnHeaders.findIndex((header) => header.name === name);
  const video = column('video');
  const minutes = column('estimatedMinutesWatched');
  const percent = column('averageViewPercentage');
  const byVideo = new Map<string, PostMetricValues>();
  if (video < 0) return byVideo;
  for (const row of table.rows) {
    const id = row[video];
    if (typeof id !== 'string') continue;
    const watched = minutes < 0 ? undefined : row[minutes];
    byVideo.set(
      id,
      cleanMetricValues(
        {
          watchTimeSeconds: typeof watched === 'number' ? Math.round(watched * 60) : undefined,
          averageViewPercent: percent < 0 ? undefined : row[percent],
        },
        POST_METRIC_NAMES,
      ),
    );
  }
  return byVideo;
}
