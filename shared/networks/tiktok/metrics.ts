import * as z from 'zod';
import {
  ACCOUNT_METRIC_NAMES,
  type AccountMetricName,
  cleanMetricValues,
  POST_METRIC_NAMES,
  type PostMetricName,
  type PostMetricValues,
} from '../../domain/metrics.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { inBatches } from '../in-batches.js';
import { isOk, readAnswer, type TikTokApi, type TikTokCall } from './api.js';
import { type MetricsFailed, type MetricsRead, metricsFailureOf, unavailable } from './metrics-failures.js';
import {
  TIKTOK_ACCOUNT_FIELDS,
  TIKTOK_POST_FIELDS,
  TIKTOK_USER_STATS_SCOPE,
  TIKTOK_VIDEO_QUERY_BATCH,
  TIKTOK_VIDEO_QUERY_SCOPE,
} from './metrics-fields.js';

const VIDEO_QUERY: MetricsRead = { what: 'the video query', scope: TIKTOK_VIDEO_QUERY_SCOPE };
const USER_STATS: MetricsRead = { what: 'the profile counts read', scope: TIKTOK_USER_STATS_SCOPE };

const VIDEO_QUERY_PATH = `/v2/video/query/?fields=${['id', ...Object.values(TIKTOK_POST_FIELDS)].join(',')}`;
const USER_STATS_PATH = `/v2/user/info/?fields=${Object.values(TIKTOK_ACCOUNT_FIELDS).join(',')}`;

/** The Video Object's id is a string on the page; read losslessly, a bare int64 is its digits. */
const VideoId = z.union([z.string().min(1), z.number().int()]).transform(String);
const QueriedVideos = z.object({
  videos: z.array(z.record(z.string(), z.unknown()).and(z.object({ id: VideoId }))).default([]),
});
const UserStats = z.object({ user: z.record(z.string(), z.unknown()) });

type Read = { kind: 'ok'; data: unknown } | MetricsFailed;

/**
 * TikTok's numbers (docs/metrics.md "TikTok"): a creator's videos through the Display API's
 * `video/query` (video.list, 20 ids a request), the profile's counts through `user/info`
 * (user.info.stats). Each call is one request; nothing is retried here: the collection schedules.
 */
export function makeTikTokMetrics(deps: { api: TikTokApi }) {
  async function read(call: TikTokCall, what: MetricsRead): Promise<Read> {
    if (call.signal.aborted) return unavailable(`Cancelled before ${what.what} was sent.`);
    try {
      const response = await deps.api.call(call);
      const retryAfter = response.headers.get('retry-after');
      const answer = await readAnswer(response);
      return isOk(answer) ? { kind: 'ok', data: answer.data } : metricsFailureOf(answer, retryAfter, what);
    } catch (error) {
      if (error instanceof NoAnswerError || error instanceof RequestNotSentError) {
        return unavailable(`TikTok did not answer ${what.what}.`);
      }
      throw error;
    }
  }

  async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    if (!request.credentials) return noToken();
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    for (const batch of inBatches(request.posts, TIKTOK_VIDEO_QUERY_BATCH)) {
      const answer = await read(
        {
          path: VIDEO_QUERY_PATH,
          accessToken: request.credentials.accessToken,
          json: { filters: { video_ids: [...new Set(batch.map((post) => post.platformPostId))] } },
          signal: request.signal,
        },
        VIDEO_QUERY,
      );
      if (answer.kind === 'failed') return answer;
      const parsed = QueriedVideos.safeParse(answer.data ?? {});
      if (!parsed.success)
        return unavailable('TikTok answered the video query in a shape it does not document.');
      const videos = new Map(parsed.data.videos.map((video) => [video.id, video]));
      for (const post of batch) {
        const video = videos.get(post.platformPostId);
        // TikTok answers only the creator's videos it still shows publicly: one missing is gone.
        if (video)
          byPost[post.postId] = cleanMetricValues<PostMetricName>(
            ourNames(video, TIKTOK_POST_FIELDS),
            POST_METRIC_NAMES,
          );
        else notFound.push(post.postId);
      }
    }
    return { kind: 'metrics', byPost, notFound };
  }

  async function readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    if (!request.credentials) return noToken();
    const answer = await read(
      {
        path: USER_STATS_PATH,
        method: 'GET',
        accessToken: request.credentials.accessToken,
        signal: request.signal,
      },
      USER_STATS,
    );
    if (answer.kind === 'failed') return answer;
    const parsed = UserStats.safeParse(answer.data);
    if (!parsed.success)
      return unavailable('TikTok answered the profile counts read in a shape it does not document.');
    return {
      kind: 'metrics',
      metrics: cleanMetricValues<AccountMetricName>(
        ourNames(parsed.data.user, TIKTOK_ACCOUNT_FIELDS),
        ACCOUNT_METRIC_NAMES,
      ),
    };
  }

  return { readPostMetrics, readAccountMetrics };
}

/** A TikTok object's fields under our names, values as TikTok sent them (cleaned by the caller). */
function ourNames<N extends string>(
  object: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<N, string>>,
): Partial<Record<N, unknown>> {
  const renamed: Partial<Record<N, unknown>> = {};
  for (const name of Object.keys(fields) as N[]) renamed[name] = object[fields[name]];
  return renamed;
}

function noToken(): MetricsFailed {
  return {
    kind: 'failed',
    failure: 'auth_failed',
    message: 'The TikTok account has no access token to read its numbers with.',
  };
}
