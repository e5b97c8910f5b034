import { describe, expect, it } from 'vitest';
import {
  accountMetricsScopesOf,
  networkMetricsOf,
  postMetricsScopesOf,
} from '../../../shared/networks/network-metrics.js';
import {
  AnalyticsResultTable,
  analyticsByVideo,
  analyticsQuery,
  pacificDate,
} from '../../../shared/networks/youtube/analytics.js';
import { YOUTUBE_SCOPES } from '../../../shared/networks/youtube/oauth.js';
import { YOUTUBE_ANALYTICS_SCOPE, YOUTUBE_READONLY_SCOPE } from '../../../shared/networks/youtube/scopes.js';

const table = (columns: string[], rows: unknown[][]) =>
  AnalyticsResultTable.parse({ columnHeaders: columns.map((name) => ({ name })), rows });

describe('YouTube Analytics report in our vocabulary', () => {
  it('maps estimatedMinutesWatched to seconds (× 60) and averageViewPercentage as given, by video', () => {
    const byVideo = analyticsByVideo(
      table(
        ['video', 'estimatedMinutesWatched', 'averageViewPercentage'],
        [
          ['vidA', 120, 41.7],
          ['vidB', 3, 98.25],
        ],
      ),
    );

    expect(Object.fromEntries(byVideo)).toEqual({
      vidA: { watchTimeSeconds: 7200, averageViewPercent: 41.7 },
      vidB: { watchTimeSeconds: 180, averageViewPercent: 98.25 },
    });
  });

  it('finds the columns by name, whatever their order', () => {
    const byVideo = analyticsByVideo(
      table(['averageViewPercentage', 'video', 'estimatedMinutesWatched'], [[50, 'vidA', 10]]),
    );

    expect(byVideo.get('vidA')).toEqual({ watchTimeSeconds: 600, averageViewPercent: 50 });
  });

  it('has no entry for a video without a row, nor any when the table has no rows', () => {
    const empty = AnalyticsResultTable.parse({
      columnHeaders: [{ name: 'video' }, { name: 'estimatedMinutesWatched' }],
    });

    expect(analyticsByVideo(empty).size).toBe(0);
    expect(analyticsByVideo(table(['video', 'estimatedMinutesWatched'], [['vidA', 1]])).has('vidB')).toBe(
      false,
    );
  });

  it('drops a value that is not a count (negative, missing), never reporting it as 0', () => {
    const byVideo = analyticsByVideo(
      table(['video', 'estimatedMinutesWatched', 'averageViewPercentage'], [['vidA', -1, null]]),
    );

    expect(byVideo.get('vidA')).toEqual({});
  });

  it("asks for the channel's whole-life report of the ids, one row per video, ending today in Pacific time", () => {
    // 06:00 UTC on 13 May is still 12 May in California.
    const now = Date.parse('2026-05-13T06:00:00.000Z');

    expect(pacificDate(now)).toBe('2026-05-12');
    expect(analyticsQuery(['a', 'b'], now)).toEqual({
      ids: 'channel==MINE',
      startDate: '2005-02-14',
      endDate: '2026-05-12',
      metrics: 'estimatedMinutesWatched,averageViewPercentage',
      dimensions: 'video',
      filters: 'video==a,b',
    });
  });
});

describe("YouTube's metrics scopes", () => {
  it('asks yt-analytics.readonly at connect, as a metrics-only scope of the metrics', () => {
    expect(YOUTUBE_SCOPES).toContain(YOUTUBE_ANALYTICS_SCOPE);
    expect(networkMetricsOf('youtube')?.scopes).toEqual([YOUTUBE_READONLY_SCOPE, YOUTUBE_ANALYTICS_SCOPE]);
  });

  it("a post's reading and the channel's numbers need youtube.readonly alone (watch time is the extra)", () => {
    expect(postMetricsScopesOf({ platform: 'youtube' })).toEqual([YOUTUBE_READONLY_SCOPE]);
    expect(accountMetricsScopesOf('youtube')).toEqual([YOUTUBE_READONLY_SCOPE]);
  });

  it('names watchTimeSeconds and averageViewPercent in the field map', () => {
    expect(networkMetricsOf('youtube')?.fields).toMatchObject({
      watchTimeSeconds: expect.stringContaining('estimatedMinutesWatched'),
      averageViewPercent: expect.stringContaining('averageViewPercentage'),
    });
  });
});
