import {
  type AccountMetricName,
  type MetricsReading,
  POST_METRIC_NAMES,
  type PostMetricName,
} from '../../domain/metrics.js';
import { empty, type Html, html, join } from '../html.js';
import { utcTime } from './time.js';

/** A post's metric or an account's: the charts draw either (an account's views and likes are its totals). */
export type ChartedMetricName = PostMetricName | AccountMetricName;

/** One reading's values, a post's or an account's. */
type ChartedValues = Partial<Record<ChartedMetricName, number>>;

/** How each metric is named on the page (its unit said where it is not a count). */
export const METRIC_LABELS: Readonly<Record<ChartedMetricName, string>> = {
  followers: 'Followers',
  following: 'Following',
  posts: 'Posts',
  impressions: 'Impressions',
  reach: 'Reach',
  views: 'Views',
  likes: 'Likes',
  comments: 'Comments',
  shares: 'Shares',
  saves: 'Saves',
  clicks: 'Clicks',
  quotes: 'Quotes',
  watchTimeSeconds: 'Watch time (seconds)',
  averageViewPercent: 'Average viewed (%)',
};

/** One value of a metric at the time it was read. */
export interface MetricPoint {
  collectedAt: string;
  value: number;
}

/** A metric over time, in reading order: only the readings that reported it. */
export interface MetricSeries {
  name: ChartedMetricName;
  points: MetricPoint[];
}

/**
 * Each metric the readings report, in the vocabulary's order (`names`: a post's by default, or an
 * account's), with its values in time order. A reading without the field is left out of that
 * metric's line: absent means "not reported", not 0.
 */
export function metricSeries(
  readings: readonly MetricsReading<ChartedValues>[],
  names: readonly ChartedMetricName[] = POST_METRIC_NAMES,
): MetricSeries[] {
  // A reading without a readable time could not be placed on the line: it is left out.
  const ordered = readings
    .filter((reading) => !Number.isNaN(Date.parse(reading.collectedAt)))
    .sort((a, b) => Date.parse(a.collectedAt) - Date.parse(b.collectedAt));
  return names
    .map((name) => ({
      name,
      points: ordered.flatMap((reading) => {
        const value = reading.metrics[name];
        return value === undefined ? [] : [{ collectedAt: reading.collectedAt, value }];
      }),
    }))
    .filter((series) => series.points.length > 0);
}

/** The drawing's size in SVG units (it scales to its box by the viewBox) and its plot area inside. */
export const CHART_BOX = { width: 320, height: 160, left: 60, right: 12, top: 12, bottom: 28 } as const;

export interface PlottedPoint {
  x: number;
  y: number;
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Where each point is drawn: time along x from the first reading (left) to the last (right), the
 * value along y from 0 (bottom) to the largest (top). The scale starts at 0 so that a line's rise
 * reads as the size of the change. One reading (or all at one time) sits in the middle.
 */
export function plotPoints(points: readonly MetricPoint[]): PlottedPoint[] {
  const { width, height, left, right, top, bottom } = CHART_BOX;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const times = points.map((point) => Date.parse(point.collectedAt));
  const first = Math.min(...times);
  const span = Math.max(...times) - first;
  const highest = Math.max(...points.map((point) => point.value));
  return points.map((point, index) => ({
    x: round(
      span === 0 ? left + plotWidth / 2 : left + (((times[index] as number) - first) / span) * plotWidth,
    ),
    y: round(top + plotHeight - (highest === 0 ? 0 : (point.value / highest) * plotHeight)),
  }));
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A value as the page shows it: thousands separated, at most one decimal (percentages). */
export function formatMetric(value: number): string {
  return numberFormat.format(value);
}

/** The UTC day and minute without the year, short enough for two labels under the drawing. */
function axisTime(iso: string): string {
  return plainTime(iso).slice(5);
}

/** The UTC minute as plain text, for the drawing's axis and its text alternative. */
function plainTime(iso: string): string {
  if (Number.isNaN(Date.parse(iso))) return iso;
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The change from the first value to the last, in words. */
function changeInWords(first: number, last: number): string {
  if (last === first) return 'unchanged';
  return `${last > first ? 'up' : 'down'} ${formatMetric(Math.abs(last - first))}`;
}

/**
 * What the chart shows, as a sentence: the text alternative of the drawing (WCAG 1.1.1), with the
 * first and last values and the change between them.
 */
export function chartSummary(series: MetricSeries): string {
  const label = METRIC_LABELS[series.name];
  const first = series.points[0] as MetricPoint;
  const last = series.points[series.points.length - 1] as MetricPoint;
  if (series.points.length === 1) {
    return `${label}: one reading so far, ${formatMetric(first.value)} at ${plainTime(first.collectedAt)}.`;
  }
  return `${label} over ${series.points.length} readings: ${formatMetric(first.value)} at ${plainTime(
    first.collectedAt,
  )}, ${formatMetric(last.value)} at ${plainTime(last.collectedAt)}, ${changeInWords(first.value, last.value)}.`;
}

function drawing(series: MetricSeries, labelId: string): Html {
  const { width, height, left, right, top, bottom } = CHART_BOX;
  const plotted = plotPoints(series.points);
  const highest = Math.max(...series.points.map((point) => point.value));
  const baseline = height - bottom;
  const line =
    plotted.length > 1
      ? html`<polyline class="chart-line" points="${plotted.map(({ x, y }) => `${x},${y}`).join(' ')}" />`
      : empty;
  const dots = join(
    plotted.map(({ x, y }) => html`<circle class="chart-dot" cx="${x}" cy="${y}" r="3.5" />`),
  );
  const first = series.points[0] as MetricPoint;
  const last = series.points[series.points.length - 1] as MetricPoint;
  const timeLabels =
    series.points.length > 1
      ? html`<text x="${left}" y="${height - 8}" text-anchor="start">${axisTime(first.collectedAt)}</text><text x="${
          width - right
        }" y="${height - 8}" text-anchor="end">${axisTime(last.collectedAt)}</text>`
      : html`<text x="${left + (width - left - right) / 2}" y="${height - 8}" text-anchor="middle">${axisTime(
          first.collectedAt,
        )}</text>`;
  // role="img" makes the drawing one image to assistive technology, named by the sentence beside it.
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${labelId}" focusable="false"><line class="chart-axis" x1="${left}" y1="${top}" x2="${left}" y2="${baseline}" /><line class="chart-axis" x1="${left}" y1="${baseline}" x2="${
    width - right
  }" y2="${baseline}" /><text x="${left - 6}" y="${top + 4}" text-anchor="end">${formatMetric(highest)}</text><text x="${
    left - 6
  }" y="${baseline}" text-anchor="end">0</text>${timeLabels}${line}${dots}</svg>`;
}

function numbersTable(series: MetricSeries): Html {
  const label = METRIC_LABELS[series.name];
  return html`<table class="chart-table"><caption>${label}, each reading</caption><thead><tr><th scope="col">Read at</th><th scope="col">${label}</th></tr></thead><tbody>${join(
    series.points.map(
      (point) =>
        html`<tr><th scope="row">${utcTime(point.collectedAt)}</th><td>${formatMetric(point.value)}</td></tr>`,
    ),
  )}</tbody></table>`;
}

/**
 * One metric over time: a line chart drawn on the server (no script), named by a sentence that
 * says what it shows, and the same numbers as a table beside it. `idPrefix` keeps ids unique when
 * a page shows several groups of charts.
 */
export function metricChart(series: MetricSeries, idPrefix = 'metric'): Html {
  const headingId = `${idPrefix}-${series.name}`;
  const summaryId = `${headingId}-summary`;
  return html`<figure class="metric" aria-labelledby="${headingId}"><h3 id="${headingId}">${
    METRIC_LABELS[series.name]
  }</h3><p id="${summaryId}" class="hint">${chartSummary(series)}</p><div class="metric-body">${drawing(
    series,
    summaryId,
  )}${numbersTable(series)}</div></figure>`;
}

/** A chart per metric the readings report (of `names`: a post's by default); nothing when there are none. */
export function metricCharts(
  readings: readonly MetricsReading<ChartedValues>[],
  idPrefix = 'metric',
  names: readonly ChartedMetricName[] = POST_METRIC_NAMES,
): Html {
  const all = metricSeries(readings, names);
  if (all.length === 0) return empty;
  return html`<div class="metric-charts">${join(all.map((series) => metricChart(series, idPrefix)))}</div>`;
}
