import { describe, expect, it } from 'vitest';
import {
  CHART_BOX,
  chartSummary,
  metricChart,
  metricCharts,
  metricSeries,
  plotPoints,
} from '../../../shared/dashboard/views/metrics-chart.js';
import {
  ACCOUNT_METRIC_NAMES,
  type AccountMetricValues,
  type MetricsReading,
  type PostMetricValues,
} from '../../../shared/domain/metrics.js';

const reading = (collectedAt: string, metrics: PostMetricValues): MetricsReading<PostMetricValues> => ({
  collectedAt,
  metrics,
});

const render = async (fragment: ReturnType<typeof metricChart>) => String(await fragment);

const left = CHART_BOX.left;
const right = CHART_BOX.width - CHART_BOX.right;
const top = CHART_BOX.top;
const bottom = CHART_BOX.height - CHART_BOX.bottom;

describe('metricSeries', () => {
  it('gives each reported metric in the vocabulary’s order, its values in time order, absent fields left out', () => {
    // Prepare: readings out of order; likes missing from the middle one (not reported, not 0).
    const readings = [
      reading('2026-11-02T00:00:00.000Z', { views: 300, likes: 9 }),
      reading('2026-11-01T00:00:00.000Z', { likes: 2, views: 100 }),
      reading('2026-11-01T06:00:00.000Z', { views: 150 }),
    ];

    // Act
    const series = metricSeries(readings);

    // Assess
    expect(series).toEqual([
      {
        name: 'views',
        points: [
          { collectedAt: '2026-11-01T00:00:00.000Z', value: 100 },
          { collectedAt: '2026-11-01T06:00:00.000Z', value: 150 },
          { collectedAt: '2026-11-02T00:00:00.000Z', value: 300 },
        ],
      },
      {
        name: 'likes',
        points: [
          { collectedAt: '2026-11-01T00:00:00.000Z', value: 2 },
          { collectedAt: '2026-11-02T00:00:00.000Z', value: 9 },
        ],
      },
    ]);
  });

  it("draws an account's metrics by the account vocabulary: followers first, names no post metric has", () => {
    const daily: MetricsReading<AccountMetricValues>[] = [
      { collectedAt: '2026-11-01T00:00:00.000Z', metrics: { posts: 4, followers: 120 } },
      { collectedAt: '2026-11-02T00:00:00.000Z', metrics: { posts: 5, followers: 131, following: 7 } },
    ];

    const series = metricSeries(daily, ACCOUNT_METRIC_NAMES);

    expect(series.map((one) => one.name)).toEqual(['followers', 'following', 'posts']);
    expect(chartSummary(series[0] as (typeof series)[number])).toBe(
      'Followers over 2 readings: 120 at 2026-11-01 00:00 UTC, 131 at 2026-11-02 00:00 UTC, up 11.',
    );
    // The post vocabulary (the default) has none of them.
    expect(metricSeries(daily)).toEqual([]);
  });

  it('leaves out a reading whose time cannot be read, and gives nothing for no readings', () => {
    expect(metricSeries([reading('not a time', { views: 5 })])).toEqual([]);
    expect(metricSeries([])).toEqual([]);
  });
});

describe('plotPoints', () => {
  it('scales time from the left edge to the right and values from 0 at the bottom to the largest at the top', () => {
    // Prepare: 0 h, 6 h, 24 h; values 0, 50, 200.
    const points = [
      { collectedAt: '2026-11-01T00:00:00.000Z', value: 0 },
      { collectedAt: '2026-11-01T06:00:00.000Z', value: 50 },
      { collectedAt: '2026-11-02T00:00:00.000Z', value: 200 },
    ];

    // Act
    const plotted = plotPoints(points);

    // Assess: a quarter of the way along, a quarter of the way up.
    expect(plotted[0]).toEqual({ x: left, y: bottom });
    expect(plotted[2]).toEqual({ x: right, y: top });
    expect(plotted[1]?.x).toBeCloseTo(left + (right - left) / 4, 1);
    expect(plotted[1]?.y).toBeCloseTo(bottom - (bottom - top) / 4, 1);
  });

  it('puts a single reading in the middle of the time axis at the top', () => {
    expect(plotPoints([{ collectedAt: '2026-11-01T00:00:00.000Z', value: 7 }])).toEqual([
      { x: left + (right - left) / 2, y: top },
    ]);
  });

  it('keeps values that are all 0 on the baseline', () => {
    const plotted = plotPoints([
      { collectedAt: '2026-11-01T00:00:00.000Z', value: 0 },
      { collectedAt: '2026-11-01T01:00:00.000Z', value: 0 },
    ]);
    expect(plotted.map((point) => point.y)).toEqual([bottom, bottom]);
  });
});

describe('chartSummary', () => {
  it('says the first and last values with their times and the change', () => {
    const summary = chartSummary({
      name: 'views',
      points: [
        { collectedAt: '2026-11-01T00:00:00.000Z', value: 1200 },
        { collectedAt: '2026-11-01T06:00:00.000Z', value: 1300 },
        { collectedAt: '2026-11-02T00:00:00.000Z', value: 4530 },
      ],
    });
    expect(summary).toBe(
      'Views over 3 readings: 1,200 at 2026-11-01 00:00 UTC, 4,530 at 2026-11-02 00:00 UTC, up 3,330.',
    );
  });

  it('says a fall and no change in words', () => {
    const points = (first: number, last: number) => [
      { collectedAt: '2026-11-01T00:00:00.000Z', value: first },
      { collectedAt: '2026-11-02T00:00:00.000Z', value: last },
    ];
    expect(chartSummary({ name: 'averageViewPercent', points: points(52.5, 48) })).toMatch(/, down 4\.5\.$/);
    expect(chartSummary({ name: 'likes', points: points(3, 3) })).toMatch(/, unchanged\.$/);
  });

  it('says a single reading is the only one so far', () => {
    expect(
      chartSummary({ name: 'likes', points: [{ collectedAt: '2026-11-01T00:00:00.000Z', value: 4 }] }),
    ).toBe('Likes: one reading so far, 4 at 2026-11-01 00:00 UTC.');
  });
});

describe('metricChart', () => {
  const views = {
    name: 'views' as const,
    points: [
      { collectedAt: '2026-11-01T00:00:00.000Z', value: 100 },
      { collectedAt: '2026-11-02T00:00:00.000Z', value: 2500 },
    ],
  };

  it('draws the line through the scaled points, an image named by the summary beside it, with its axis labels', async () => {
    const markup = await render(metricChart(views));

    expect(markup).toContain(
      `<polyline class="chart-line" points="${left},${bottom - (bottom - top) * 0.04} ${right},${top}"`,
    );
    expect(markup.match(/<circle /g)).toHaveLength(2);
    expect(markup).toMatch(/<svg [^>]*role="img" aria-labelledby="metric-views-summary"/);
    expect(markup).toContain(
      '<p id="metric-views-summary" class="hint">Views over 2 readings: 100 at 2026-11-01 00:00 UTC, 2,500 at 2026-11-02 00:00 UTC, up 2,400.</p>',
    );
    expect(markup).toContain('<h3 id="metric-views">Views</h3>');
    // The scale's top and bottom, the first and last times.
    expect(markup).toContain('text-anchor="end">2,500</text>');
    expect(markup).toContain('text-anchor="end">0</text>');
    expect(markup).toContain('text-anchor="start">11-01 00:00 UTC</text>');
    expect(markup).toContain('text-anchor="end">11-02 00:00 UTC</text>');
    expect(markup).not.toContain('<script');
  });

  it('puts the same numbers in a table with a caption and headers scoped to their column and row', async () => {
    const markup = await render(metricChart(views));

    expect(markup).toContain('<caption>Views, each reading</caption>');
    expect(markup).toContain('<th scope="col">Read at</th><th scope="col">Views</th>');
    expect(markup).toContain(
      '<tr><th scope="row"><time datetime="2026-11-01T00:00:00.000Z">2026-11-01 00:00 UTC</time></th><td>100</td></tr>',
    );
    expect(markup).toContain('<td>2,500</td>');
  });

  it('draws one reading as a dot without a line', async () => {
    const markup = await render(
      metricChart({ name: 'likes', points: [{ collectedAt: '2026-11-01T00:00:00.000Z', value: 4 }] }),
    );
    expect(markup).not.toContain('<polyline');
    expect(markup.match(/<circle /g)).toHaveLength(1);
    expect(markup).toContain(`cx="${left + (right - left) / 2}" cy="${top}"`);
  });

  it('escapes what the caller gives it', async () => {
    const markup = await render(metricChart(views, '"><script>alert(1)</script>'));
    expect(markup).not.toContain('<script>');
    expect(markup).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('metricCharts', () => {
  it('gives a chart per reported metric, each with its own ids, and nothing without readings', async () => {
    const markup = String(
      await metricCharts(
        [
          reading('2026-11-01T00:00:00.000Z', { views: 1, likes: 0 }),
          reading('2026-11-01T01:00:00.000Z', { views: 3, likes: 1 }),
        ],
        'post',
      ),
    );
    expect(markup.match(/<figure /g)).toHaveLength(2);
    expect(markup).toContain('id="post-views"');
    expect(markup).toContain('id="post-likes"');
    expect(String(await metricCharts([]))).toBe('');
  });
});
