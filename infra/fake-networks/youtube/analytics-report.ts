import { FAKE_VIEWS_PER_HOUR } from './statistics.js';
import type { FakeVideo } from './store.js';

/**
 * How far the fake's Analytics data lag behind its clock: YouTube's reports come a day or two (up
 * to about three) after the views, so a video only hours old has no row yet.
 */
export const FAKE_ANALYTICS_LAG_HOURS = 48;
/** Minutes watched per view in the fake's reports: watch time grows with the views. */
export const FAKE_MINUTES_PER_VIEW = 2;
/** Every fake video's average view percentage (a share, so it does not grow with the views). */
export const FAKE_AVERAGE_VIEW_PERCENTAGE = 41.7;
/** The most video ids one `filters=video==…` takes (reports.query, multiple filter values). */
export const REPORTS_MAX_FILTER_IDS = 500;

/** The metrics the fake's reports know, with the type reports.query's columnHeaders give them. */
export const FAKE_REPORT_METRICS: Readonly<Record<string, 'INTEGER' | 'FLOAT'>> = {
  views: 'INTEGER',
  estimatedMinutesWatched: 'INTEGER',
  averageViewPercentage: 'FLOAT',
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A video's numbers in a report from `startDate` to `endDate` (whole days, UTC in the fake), as far
 * as the data have arrived (the lag); undefined when none has (no row). Only a processed video
 * gathers views, as in the statistics.
 */
export function videoReport(
  video: FakeVideo,
  range: { startDate: string; endDate: string },
  nowMs: number,
): Readonly<Record<string, number>> | undefined {
  if (video.uploadStatus !== 'processed') return undefined;
  const from = Math.max(Date.parse(video.uploadedAt), Date.parse(`${range.startDate}T00:00:00Z`));
  const until = Math.min(
    nowMs - FAKE_ANALYTICS_LAG_HOURS * HOUR_MS,
    Date.parse(`${range.endDate}T00:00:00Z`) + DAY_MS,
  );
  if (until <= from) return undefined;
  const views = Math.floor(((until - from) / HOUR_MS) * FAKE_VIEWS_PER_HOUR);
  if (views === 0) return undefined;
  return {
    views,
    estimatedMinutesWatched: views * FAKE_MINUTES_PER_VIEW,
    averageViewPercentage: FAKE_AVERAGE_VIEW_PERCENTAGE,
  };
}
