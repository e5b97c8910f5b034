import type { PostMetricValues } from '../../domain/metrics.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  MetricsTarget,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { inBatches } from '../in-batches.js';
import { type PostsMetricsAnswer, postsMetricsAnswer, userMetricsAnswer } from './answers.js';
import { callX, type XCaller } from './api.js';
import {
  type MetricsFailure,
  metricsBadAnswer,
  metricsFailureOfAnswer,
  metricsFailureOfError,
  metricsScopesLacking,
  metricsWithoutToken,
} from './metrics-failures.js';
import { accountMetricsOf, postMetricsOf, X_METRICS_BATCH_SIZE } from './metrics-fields.js';

export interface XMetricsSettings {
  apiUrl: string;
  fetch?: typeof fetch;
  /** Epoch ms, for the wait a rate limit asks for. */
  now: () => number;
}

const NOT_FOUND = 'https://api.x.com/2/problems/resource-not-found';

/**
 * How published posts did on X (docs/metrics.md "X"): GET /2/tweets with up to 100 ids a request
 * and `tweet.fields=public_metrics`. Ids stay strings throughout: X's ids are 64-bit, beyond what a
 * JavaScript number holds exactly. A post X answers `resource-not-found` for is gone (`notFound`);
 * any request X refuses or does not answer ends the read with that failure, the calls after it not
 * made (X charges per post read, and the collection reads them all again later).
 */
export async function readXPostMetrics(
  settings: XMetricsSettings,
  request: PostMetricsRequest,
): Promise<PostMetricsAnswer> {
  if (!request.credentials) return metricsWithoutToken();
  const lacking = metricsScopesLacking(request.account);
  if (lacking) return lacking;
  const caller = callerOf(settings, request.credentials.accessToken, request.signal);
  const byPost: Record<string, PostMetricValues> = {};
  const notFound: string[] = [];
  for (const batch of inBatches(request.posts, X_METRICS_BATCH_SIZE)) {
    const read = await readBatch(caller, settings, request, batch);
    if ('failure' in read) return read;
    for (const post of batch) {
      const metrics = read.metrics.get(post.platformPostId);
      if (metrics) byPost[post.postId] = metrics;
      else if (read.gone.has(post.platformPostId)) notFound.push(post.postId);
    }
  }
  return { kind: 'metrics', byPost, notFound };
}

type BatchRead = { metrics: Map<string, PostMetricValues>; gone: Set<string> } | MetricsFailure;

async function readBatch(
  caller: XCaller,
  settings: XMetricsSettings,
  request: PostMetricsRequest,
  batch: readonly MetricsTarget[],
): Promise<BatchRead> {
  try {
    const ids = [...new Set(batch.map((post) => post.platformPostId))];
    const answer = await callX(caller, {
      method: 'GET',
      path: '/2/tweets',
      query: { ids: ids.join(','), 'tweet.fields': 'public_metrics' },
    });
    if (!answer.ok) return metricsFailureOfAnswer(answer, request.account, settings.now());
    const parsed = postsMetricsAnswer.safeParse(answer.body);
    if (!parsed.success) return metricsBadAnswer();
    return batchOf(parsed.data);
  } catch (error) {
    return metricsFailureOfError(error);
  }
}

/**
 * What one answer says of each id. A post in `data` without `public_metrics` gives no reading
 * (neither numbers nor gone); an id X lists with another error (a protected or suspended author)
 * is neither either: its next collection asks again.
 */
function batchOf(answer: PostsMetricsAnswer): { metrics: Map<string, PostMetricValues>; gone: Set<string> } {
  const metrics = new Map<string, PostMetricValues>();
  for (const post of answer.data ?? []) {
    if (post.public_metrics) metrics.set(post.id, postMetricsOf(post.public_metrics));
  }
  const gone = new Set<string>();
  for (const error of answer.errors ?? []) {
    const id = error.resource_id ?? error.value;
    if (error.type === NOT_FOUND && id !== undefined) gone.add(id);
  }
  return { metrics, gone };
}

/** The account's followers, following and posts: one GET /2/users/me. */
export async function readXAccountMetrics(
  settings: XMetricsSettings,
  request: AccountMetricsRequest,
): Promise<AccountMetricsAnswer> {
  if (!request.credentials) return metricsWithoutToken();
  const lacking = metricsScopesLacking(request.account);
  if (lacking) return lacking;
  try {
    const answer = await callX(callerOf(settings, request.credentials.accessToken, request.signal), {
      method: 'GET',
      path: '/2/users/me',
      query: { 'user.fields': 'public_metrics' },
    });
    if (!answer.ok) return metricsFailureOfAnswer(answer, request.account, settings.now());
    const parsed = userMetricsAnswer.safeParse(answer.body);
    if (!parsed.success) return metricsBadAnswer();
    return { kind: 'metrics', metrics: accountMetricsOf(parsed.data.data.public_metrics) };
  } catch (error) {
    return metricsFailureOfError(error);
  }
}

function callerOf(settings: XMetricsSettings, accessToken: string, signal: AbortSignal): XCaller {
  return { apiUrl: settings.apiUrl, accessToken, signal, ...(settings.fetch && { fetch: settings.fetch }) };
}
