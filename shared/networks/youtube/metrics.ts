import type { PostMetricValues } from '../../domain/metrics.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { inBatches } from '../in-batches.js';
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
import { accountMetricsOf, ChannelStatisticsList, postMetricsOf, VideoStatisticsList } from './statistics.js';

export interface YouTubeMetricsDeps {
  api: YouTubeApi;
  /** YOUTUBE_API_URL. */
  apiUrl: string;
  now: () => number;
  /** Ids per videos.list (default and most: 50); tests make it smaller. */
  batchSize?: number;
}

/** One statistics read: the parsed body, or the failure it answered. */
type ReadResult = { kind: 'body'; body: unknown } | MetricsFailed;

/**
 * The metrics readers (docs/metrics.md "YouTube"): the posts' numbers from videos.list with
 * part=statistics, up to 50 ids a call (1 quota unit each), and the channel's from channels.list
 * with part=statistics&mine=true (1 unit). Every failure is one of the documented kinds; any error
 * of a later batch fails the whole request, so a reading is never half of the posts asked for.
 */
export function makeYouTubeMetrics(deps: YouTubeMetricsDeps) {
  const batchSize = Math.min(deps.batchSize ?? YOUTUBE_METRICS_BATCH_SIZE, YOUTUBE_METRICS_BATCH_SIZE);

  async function read(
    what: MetricsRead,
    path: string,
    query: Record<string, string>,
    accessToken: string,
    signal: AbortSignal,
  ): Promise<ReadResult> {
    if (signal.aborted) return failed('unavailable', `The ${what} read was cancelled.`);
    try {
      const response = await deps.api({
        method: 'GET',
        url: `${deps.apiUrl}/${path}`,
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

  async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    const accessToken = request.credentials?.accessToken;
    if (!accessToken) return failed('auth_failed', 'The YouTube account has no access token.');
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    for (const batch of inBatches(request.posts, batchSize)) {
      const ids = [...new Set(batch.map((post) => post.platformPostId))];
      const result = await read(
        'video statistics',
        'videos',
        // No maxResults: videos.list does not take it beside `id`.
        { part: 'statistics', id: ids.join(',') },
        accessToken,
        request.signal,
      );
      if (result.kind === 'failed') return result;
      const parsed = VideoStatisticsList.safeParse(result.body);
      if (!parsed.success) return failed('unavailable', 'YouTube answered the video statistics unreadably.');
      const byVideo = new Map(parsed.data.items.map((item) => [item.id, item.statistics]));
      for (const post of batch) {
        // A video YouTube no longer lists (deleted, or removed by YouTube) is left out of items.
        if (byVideo.has(post.platformPostId))
          byPost[post.postId] = postMetricsOf(byVideo.get(post.platformPostId));
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
      'channels',
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
