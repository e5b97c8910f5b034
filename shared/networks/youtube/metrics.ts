import type { PostMetricValues } from '../../domain/metrics.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { inBatches } from '../in-batches.js';
import { AnalyticsResultTable, analyticsByVideo, analyticsQuery } from './analytics.js';
import { readJson, type YouTubeApi } from './api.js';
import { readGoogleError } from './errors.js';
import { YOUTUBE_METRICS_BATCH_SIZE } from './limits.js';
import {
  failed,
  type MetricsFailed,
  type MetricsRead,
  metricsFailureOf,
  retryAfterOf,
} from './metrics-errors.js';
import { YOUTUBE_ANALYTICS_SCOPE } from './scopes.js';
import { accountMetricsOf, ChannelStatisticsList, postMetricsOf, VideoStatisticsList } from './statistics.js';

export interface YouTubeMetricsDeps {
  api: YouTubeApi;
  /** YOUTUBE_API_URL. */
  apiUrl: string;
  /** YOUTUBE_ANALYTICS_API_URL: the YouTube Analytics API (reports.query), another host. */
  analyticsUrl: string;
  now: () => number;
  /** Ids per videos.list (default and most: 50); tests make it smaller. */
  batchSize?: number;
}

/** One statistics read: the parsed body, or the failure it answered. */
type ReadResult = { kind: 'body'; body: unknown } | MetricsFailed;

/**
 * The metrics readers (docs/metrics.md "YouTube"): the posts' numbers from videos.list with
 * part=statistics, up to 50 ids a call (1 quota unit each), then their watch time and average view
 * percentage from one YouTube Analytics report for the same batch (no Data API units), and the
 * channel's from channels.list with part=statistics&mine=true (1 unit). Every failure is one of the
 * documented kinds; any error of a later batch fails the whole request, so a reading is never half
 * of the posts asked for. The report is the lesser half: when it cannot be had (the Analytics scope
 * not granted, throttled, down) the statistics stand without its two fields.
 */
export function makeYouTubeMetrics(deps: YouTubeMetricsDeps) {
  const batchSize = Math.min(deps.batchSize ?? YOUTUBE_METRICS_BATCH_SIZE, YOUTUBE_METRICS_BATCH_SIZE);

  async function read(
    what: MetricsRead,
    url: string,
    query: Record<string, string>,
    accessToken: string,
    signal: AbortSignal,
  ): Promise<ReadResult> {
    if (signal.aborted) return failed('unavailable', `The ${what} read was cancelled.`);
    try {
      const response = await deps.api({
        method: 'GET',
        url,
        accessToken,
        query,
        signal,
      });
      if (!response.ok) {
        const retryAfter = retryAfterOf(response);
        return metricsFailureOf(await readGoogleError(response), what, retryAfter, deps.now());
      }
      return { kind: 'body', body: await readJson(response) };
    } catch {
      // No answer (a time-out, a reset, the signal): nothing to settle, the next collection tries again.
      return failed('unavailable', `YouTube did not answer the ${what} read.`);
    }
  }

  /**
   * The Analytics report of a batch's videos (one call: a batch of 50 is within the filter's 500
   * ids), by video id. A video without a row (too new: the data lag a day or more) is not in it.
   * Only a refused token (or a cancelled read) fails the reading; anything else leaves the two
   * fields out, and an account whose grant lacks the scope is not asked at all.
   */
  async function readAnalytics(
    videoIds: readonly string[],
    request: PostMetricsRequest,
    accessToken: string,
  ): Promise<Map<string, PostMetricValues> | MetricsFailed> {
    const granted = request.account.scopes;
    if (videoIds.length === 0 || (granted && !granted.includes(YOUTUBE_ANALYTICS_SCOPE))) return new Map();
    const result = await read(
      'video analytics',
      `${deps.analyticsUrl}/reports`,
      analyticsQuery(videoIds, deps.now()),
      accessToken,
      request.signal,
    );
    if (result.kind === 'failed')
      return result.failure === 'auth_failed' || request.signal.aborted ? result : new Map();
    const parsed = AnalyticsResultTable.safeParse(result.body);
    return parsed.success ? analyticsByVideo(parsed.data) : new Map();
  }

  async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    const accessToken = request.credentials?.accessToken;
    if (!accessToken) return failed('auth_failed', 'The YouTube account has no access token.');
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    for (const batch of inBatches(request.posts, batchSize)) {
      const ids = [...new Set(batch.map((post) => post.platformPostId))];
      const result = await read(
        'video statistics',
        `${deps.apiUrl}/videos`,
        // No maxResults: videos.list does not take it beside `id`.
        { part: 'statistics', id: ids.join(',') },
        accessToken,
        request.signal,
      );
      if (result.kind === 'failed') return result;
      const parsed = VideoStatisticsList.safeParse(result.body);
      if (!parsed.success) return failed('unavailable', 'YouTube answered the video statistics unreadably.');
      const byVideo = new Map(parsed.data.items.map((item) => [item.id, item.statistics]));
      const analytics = await readAnalytics([...byVideo.keys()], request, accessToken);
      if (!(analytics instanceof Map)) return analytics;
      for (const post of batch) {
        // A video YouTube no longer lists (deleted, or removed by YouTube) is left out of items.
        if (byVideo.has(post.platformPostId))
          byPost[post.postId] = {
            ...postMetricsOf(byVideo.get(post.platformPostId)),
            ...analytics.get(post.platformPostId),
          };
        else notFound.push(post.postId);
      }
    }
    return { kind: 'metrics', byPost, notFound };
  }

  async function readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    const accessToken = request.credentials?.accessToken;
    if (!accessToken) return failed('auth_failed', 'The YouTube account has no access token.');
    const result = await read(
      'channel statistics',
      `${deps.apiUrl}/channels`,
      { part: 'statistics', mine: 'true' },
      accessToken,
      request.signal,
    );
    if (result.kind === 'failed') return result;
    const parsed = ChannelStatisticsList.safeParse(result.body);
    if (!parsed.success) return failed('unavailable', 'YouTube answered the channel statistics unreadably.');
    const channel = parsed.data.items[0];
    if (!channel) return failed('auth_failed', 'The Google account has no YouTube channel any more.');
    return { kind: 'metrics', metrics: accountMetricsOf(channel.statistics) };
  }

  return { readPostMetrics, readAccountMetrics };
}
