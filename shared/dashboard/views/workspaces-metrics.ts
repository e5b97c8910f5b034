import { POST_METRIC_NAMES, type PostMetricName, type PostMetricValues } from '../../domain/metrics.js';
import { PLATFORMS, type Platform } from '../../domain/platforms.js';
import { DASHBOARD_BASE } from '../env.js';
import { type Html, html, join } from '../html.js';
import { formatMetric, METRIC_LABELS } from './metrics-chart.js';
import { excerptOf, NETWORK_NAMES } from './posts-format.js';
import { utcTime } from './time.js';

/** How far back the overview looks, and how many of the newest published posts it reads at most. */
export const OVERVIEW_WINDOW_DAYS = 30;
export const OVERVIEW_POST_BOUND = 50;
const BEST_POSTS = 5;

/** A published post of the window with its latest reading. */
export interface PostLatestMetrics {
  id: string;
  platform: Platform;
  content: string | ReadonlyArray<{ text?: string | undefined }>;
  publishedAt: string;
  metrics: PostMetricValues;
}

export interface WorkspaceMetrics {
  /** The published posts of the window that were read (at most OVERVIEW_POST_BOUND). */
  published: number;
  /** Those with at least one reading, each with its latest. */
  measured: PostLatestMetrics[];
  /** The bound stopped the reading with more published posts still to read. */
  cutShort: boolean;
}

/** A percentage of one post is not a count: adding them up would mean nothing. */
const SUMMED: readonly PostMetricName[] = POST_METRIC_NAMES.filter((name) => name !== 'averageViewPercent');

export interface NetworkTotals {
  platform: Platform;
  posts: number;
  totals: PostMetricValues;
}

/**
 * Per network, in the platforms' order, the sum of each metric over its posts' latest readings; a
 * metric no post of the network reported stays absent (not 0).
 */
export function totalsByNetwork(posts: readonly PostLatestMetrics[]): NetworkTotals[] {
  return PLATFORMS.flatMap((platform) => {
    const own = posts.filter((post) => post.platform === platform);
    if (own.length === 0) return [];
    const totals: PostMetricValues = {};
    for (const post of own) {
      for (const name of SUMMED) {
        const value = post.metrics[name];
        if (value !== undefined) totals[name] = (totals[name] ?? 0) + value;
      }
    }
    return [{ platform, posts: own.length, totals }];
  });
}

/** The posts with the most views, then the most likes; a post reporting neither is not ranked. */
export function bestPosts(posts: readonly PostLatestMetrics[], count = BEST_POSTS): PostLatestMetrics[] {
  const ranked = posts.filter((post) => post.metrics.views !== undefined || post.metrics.likes !== undefined);
  return [...ranked]
    .sort(
      (a, b) =>
        (b.metrics.views ?? -1) - (a.metrics.views ?? -1) ||
        (b.metrics.likes ?? -1) - (a.metrics.likes ?? -1),
    )
    .slice(0, count);
}

const valueCell = (label: string, value: number | undefined) =>
  html`<td data-label="${label}">${value === undefined ? html`<span class="hint">not reported</span>` : formatMetric(value)}</td>`;

function totalsTable(rows: readonly NetworkTotals[]): Html {
  const names = SUMMED.filter((name) => rows.some((row) => row.totals[name] !== undefined));
  return html`<table class="responsive"><caption>Totals per network, from each post's latest reading</caption><thead><tr><th scope="col">Network</th><th scope="col">Posts measured</th>${join(
    names.map((name) => html`<th scope="col">${METRIC_LABELS[name]}</th>`),
  )}</tr></thead><tbody>${join(
    rows.map(
      (row) =>
        html`<tr><th scope="row" data-label="Network">${NETWORK_NAMES[row.platform]}</th><td data-label="Posts measured">${String(
          row.posts,
        )}</td>${join(names.map((name) => valueCell(METRIC_LABELS[name], row.totals[name])))}</tr>`,
    ),
  )}</tbody></table>`;
}

function bestTable(workspaceId: string, posts: readonly PostLatestMetrics[]): Html {
  const base = `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts`;
  return html`<table class="responsive"><caption>Best posts, by views, then likes</caption><thead><tr><th scope="col">Post</th><th scope="col">Network</th><th scope="col">Published</th><th scope="col">Views</th><th scope="col">Likes</th></tr></thead><tbody>${join(
    posts.map(
      (post) =>
        html`<tr><th scope="row" data-label="Post"><a href="${base}/${post.id}">${excerptOf(post.content, 60) || post.id}</a></th><td data-label="Network">${
          NETWORK_NAMES[post.platform]
        }</td><td data-label="Published">${utcTime(post.publishedAt)}</td>${valueCell('Views', post.metrics.views)}${valueCell(
          'Likes',
          post.metrics.likes,
        )}</tr>`,
    ),
  )}</tbody></table>`;
}

/**
 * The overview's "Last 30 days": totals per network and the best posts, from the latest reading of
 * each published post of the window; the bound said on the page; an empty state when none has numbers.
 */
export function workspaceMetricsSection(workspaceId: string, metrics: WorkspaceMetrics | undefined): Html {
  const heading = html`<h2 id="metrics-overview">Last ${String(OVERVIEW_WINDOW_DAYS)} days</h2>`;
  if (!metrics) {
    return html`<section class="metrics-overview" aria-labelledby="metrics-overview">${heading}<p>The metrics could not be read just now.</p></section>`;
  }
  const bound = html`<p class="hint">From the ${String(OVERVIEW_POST_BOUND)} newest published posts at most${
    metrics.cutShort ? ' (there are more)' : ''
  }: ${String(metrics.published)} published in the last ${String(OVERVIEW_WINDOW_DAYS)} days, ${String(
    metrics.measured.length,
  )} with metrics read.</p>`;
  if (metrics.measured.length === 0) {
    const none =
      metrics.published === 0
        ? html`<p>No post was published in the last ${String(OVERVIEW_WINDOW_DAYS)} days: totals and the best posts appear here once posts go out and their metrics are read.</p>`
        : html`<p>No metrics have been read yet for the posts published in the last ${String(OVERVIEW_WINDOW_DAYS)} days: the first reading comes an hour after a post goes out.</p>`;
    return html`<section class="metrics-overview" aria-labelledby="metrics-overview">${heading}${none}</section>`;
  }
  const best = bestPosts(metrics.measured);
  return html`<section class="metrics-overview" aria-labelledby="metrics-overview">${heading}${bound}${totalsTable(
    totalsByNetwork(metrics.measured),
  )}${best.length > 0 ? bestTable(workspaceId, best) : html`<p>None of these posts reports views or likes.</p>`}</section>`;
}
