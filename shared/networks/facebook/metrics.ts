import {
  type AccountMetricValues,
  cleanMetricValues,
  POST_METRIC_NAMES,
  type PostMetricValues,
} from '../../domain/metrics.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { isRecord, readJson } from './api.js';
import { type GraphErrorFacts, readGraphError } from './errors.js';
import type { PageContext } from './graph.js';
import {
  FACEBOOK_ENGAGEMENT_SCOPE,
  FACEBOOK_PAGE_FIELDS,
  FACEBOOK_POST_FIELDS,
  FACEBOOK_VIDEO_FIELDS,
} from './metrics-fields.js';

type MetricsFailed = Extract<PostMetricsAnswer, { kind: 'failed' }>;

const THROTTLE_CODES = new Set([4, 17, 32, 613]);

const unavailable = (message: string): MetricsFailed => ({ kind: 'failed', failure: 'unavailable', message });

function missingScope(): MetricsFailed {
  return {
    kind: 'failed',
    failure: 'missing_scopes',
    missingScopes: [FACEBOOK_ENGAGEMENT_SCOPE],
    message: `The Facebook Page was not granted ${FACEBOOK_ENGAGEMENT_SCOPE}: reconnect it to read its metrics.`,
  };
}

/** A Graph error of a metrics read, as a whole-request failure; only the codes are read. */
export function metricsFailureOf(facts: GraphErrorFacts, what: string): MetricsFailed {
  if (facts.code === 190 || facts.code === 102 || (facts.code === undefined && facts.status === 401)) {
    return {
      kind: 'failed',
      failure: 'auth_failed',
      message: `Facebook refused the Page's access token at ${what}: the Page needs a reconnect.`,
    };
  }
  if (facts.code === 10 || (facts.code !== undefined && facts.code >= 200 && facts.code <= 299))
    return missingScope();
  if ((facts.code !== undefined && THROTTLE_CODES.has(facts.code)) || facts.status === 429) {
    return {
      kind: 'failed',
      failure: 'rate_limited',
      ...(facts.retryAfterSeconds !== undefined && { retryAfterSeconds: facts.retryAfterSeconds }),
      message: `Facebook throttled the app or the Page at ${what}.`,
    };
  }
  return unavailable(`Facebook refused ${what} (HTTP ${facts.status}).`);
}

/** `{summary: {total_count}}` or `{count}`: the number, or undefined. */
function countOf(value: unknown, key: 'summary' | 'count'): number | undefined {
  if (!isRecord(value)) return undefined;
  if (key === 'count') return typeof value.count === 'number' ? value.count : undefined;
  const summary = value.summary;
  return isRecord(summary) && typeof summary.total_count === 'number' ? summary.total_count : undefined;
}

/**
 * A post's or video's engagement fields → our names (reactions count as likes). Meta leaves
 * `shares` out of a feed post nobody shared: 0, not unknown; a video has no shares to give.
 */
export function postMetricsFromFields(
  fields: Readonly<Record<string, unknown>>,
  kind: 'post' | 'video',
): PostMetricValues {
  return cleanMetricValues(
    {
      likes: countOf(fields.reactions, 'summary'),
      comments: countOf(fields.comments, 'summary'),
      shares: kind === 'post' ? (countOf(fields.shares, 'count') ?? 0) : undefined,
    },
    POST_METRIC_NAMES,
  );
}

const isNetworkError = (error: unknown) =>
  error instanceof NoAnswerError || error instanceof RequestNotSentError;

const NO_TOKEN: MetricsFailed = {
  kind: 'failed',
  failure: 'auth_failed',
  message: 'The Facebook Page has no access token to read metrics with.',
};

/**
 * The connector's metrics readers (docs/metrics.md "Facebook"): one post per request (batchSize 1;
 * a Graph multi-id read fails whole when one id is gone), in order; the first failure that concerns
 * the Page (token, permission, throttle, no answer) ends the request. A post Meta no longer has
 * (100/33) goes to `notFound`.
 */
export function makeFacebookMetrics(deps: { api: PageContext['api'] }) {
  const read = (context: Omit<PageContext, 'pageId'>, id: string, fields: string) =>
    context.api({
      method: 'GET',
      path: `/${id}`,
      params: { fields },
      accessToken: context.accessToken,
      signal: context.signal,
    });

  async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    if (!request.credentials) return NO_TOKEN;
    if (request.account.scopes !== undefined && !request.account.scopes.includes(FACEBOOK_ENGAGEMENT_SCOPE))
      return missingScope();
    const context = { api: deps.api, accessToken: request.credentials.accessToken, signal: request.signal };
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    try {
      for (const target of request.posts) {
        // A feed post is `<page-id>_<post-id>`; a video or reel is its video id alone.
        const kind = target.platformPostId.includes('_') ? 'post' : 'video';
        const fields = kind === 'post' ? FACEBOOK_POST_FIELDS : FACEBOOK_VIDEO_FIELDS;
        const response = await read(context, target.platformPostId, fields);
        if (!response.ok) {
          const facts = await readGraphError(response);
          if (facts.code === 100 && facts.subcode === 33) {
            notFound.push(target.postId);
            continue;
          }
          return metricsFailureOf(facts, 'the post read');
        }
        const body = await readJson(response);
        if (!isRecord(body)) return unavailable('Facebook answered the post read unreadably.');
        byPost[target.postId] = postMetricsFromFields(body, kind);
      }
    } catch (error) {
      if (isNetworkError(error)) return unavailable('Facebook did not answer the metrics read.');
      throw error;
    }
    return { kind: 'metrics', byPost, notFound };
  }

  async function readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    if (!request.credentials) return NO_TOKEN;
    const context = { api: deps.api, accessToken: request.credentials.accessToken, signal: request.signal };
    try {
      const response = await read(context, request.account.networkUserId ?? 'me', FACEBOOK_PAGE_FIELDS);
      if (!response.ok) return metricsFailureOf(await readGraphError(response), 'the Page read');
      const body = await readJson(response);
      if (!isRecord(body)) return unavailable('Facebook answered the Page read unreadably.');
      const metrics: AccountMetricValues =
        typeof body.followers_count === 'number' && body.followers_count >= 0
          ? { followers: body.followers_count }
          : {};
      return { kind: 'metrics', metrics };
    } catch (error) {
      if (isNetworkError(error)) return unavailable('Facebook did not answer the Page read.');
      throw error;
    }
  }

  return { readPostMetrics, readAccountMetrics };
}
