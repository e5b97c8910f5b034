import * as z from 'zod';
import {
  ACCOUNT_METRIC_NAMES,
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
import { readJson } from './api.js';
import { type GraphErrorFacts, readGraphError } from './errors.js';
import type { GraphContext } from './graph.js';
import { THREADS_INSIGHTS_SCOPE, THREADS_POST_METRICS } from './metrics-fields.js';

type MetricsFailed = Extract<PostMetricsAnswer, { kind: 'failed' }>;

const Insights = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      values: z.array(z.object({ value: z.unknown() })).optional(),
      total_value: z.object({ value: z.unknown() }).optional(),
    }),
  ),
});

/** `{data: [{name, values: [{value}]} | {name, total_value: {value}}]}` as name → value. */
function insightValues(body: unknown): Record<string, unknown> | undefined {
  const parsed = Insights.safeParse(body);
  if (!parsed.success) return undefined;
  return Object.fromEntries(
    parsed.data.data.map((entry) => [entry.name, entry.total_value?.value ?? entry.values?.at(-1)?.value]),
  );
}

/** Threads' post insights by its names → ours (replies → comments, reposts → shares). */
export function postMetricsFromInsights(insights: Readonly<Record<string, unknown>>): PostMetricValues {
  return cleanMetricValues(
    {
      views: insights.views,
      likes: insights.likes,
      comments: insights.replies,
      shares: insights.reposts,
      quotes: insights.quotes,
    },
    POST_METRIC_NAMES,
  );
}

const unavailable = (message: string): MetricsFailed => ({ kind: 'failed', failure: 'unavailable', message });

/** A Graph error of a metrics read as a whole-request failure; only the codes are read. */
function failureOf(facts: GraphErrorFacts, what: string): MetricsFailed {
  if (facts.code === 190 || (facts.code === undefined && facts.status === 401)) {
    return {
      kind: 'failed',
      failure: 'auth_failed',
      message: `Threads refused the account's access token at ${what}.`,
    };
  }
  if (facts.code === 10 || (facts.code !== undefined && facts.code >= 200 && facts.code <= 299)) {
    return {
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: [THREADS_INSIGHTS_SCOPE],
      message: `The Threads account was not granted ${THREADS_INSIGHTS_SCOPE}: reconnect it to read its metrics.`,
    };
  }
  if ([4, 17, 32, 613].includes(facts.code ?? -1) || facts.status === 429) {
    return {
      kind: 'failed',
      failure: 'rate_limited',
      message: `Threads throttled the app or account at ${what}.`,
    };
  }
  return unavailable(`Threads failed at ${what} (HTTP ${facts.status}).`);
}

function unreachable(error: unknown): MetricsFailed {
  if (error instanceof RequestNotSentError) return unavailable('Threads could not be reached.');
  return unavailable('Threads did not answer the metrics read.');
}

function contextOf(api: GraphContext['api'], request: PostMetricsRequest | AccountMetricsRequest) {
  if (!request.credentials) return undefined;
  return {
    api,
    accessToken: request.credentials.accessToken,
    userId: request.account.networkUserId ?? 'me',
    signal: request.signal,
  } satisfies GraphContext;
}

const NO_TOKEN: MetricsFailed = {
  kind: 'failed',
  failure: 'auth_failed',
  message: 'The Threads account has no access token to read metrics with.',
};

/**
 * The connector's metrics readers (docs/metrics.md, Threads): one post per request (batchSize 1),
 * read in order; the first failure that concerns the account ends the request, as the rest would
 * fail alike. A post Threads no longer has (100/33) goes to `notFound`.
 */
export function makeThreadsMetrics(deps: { api: GraphContext['api'] }) {
  async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    const context = contextOf(deps.api, request);
    if (!context) return NO_TOKEN;
    if (request.account.scopes && !request.account.scopes.includes(THREADS_INSIGHTS_SCOPE)) {
      return failureOf({ status: 403, code: 10 }, 'the insights read');
    }
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    try {
      for (const target of request.posts) {
        const response = await context.api({
          method: 'GET',
          path: `/${target.platformPostId}/insights`,
          params: { metric: THREADS_POST_METRICS.join(',') },
          accessToken: context.accessToken,
          signal: context.signal,
        });
        if (!response.ok) {
          const facts = await readGraphError(response);
          if (facts.code === 100 && facts.subcode === 33) {
            notFound.push(target.postId);
            continue;
          }
          return failureOf(facts, 'the insights read');
        }
        const values = insightValues(await readJson(response));
        if (!values) return unavailable('Threads answered the insights read unreadably.');
        byPost[target.postId] = postMetricsFromInsights(values);
      }
    } catch (error) {
      if (error instanceof NoAnswerError || error instanceof RequestNotSentError) return unreachable(error);
      throw error;
    }
    return { kind: 'metrics', byPost, notFound };
  }

  async function readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    const context = contextOf(deps.api, request);
    if (!context) return NO_TOKEN;
    try {
      const response = await context.api({
        method: 'GET',
        path: `/${context.userId}/threads_insights`,
        params: { metric: 'followers_count' },
        accessToken: context.accessToken,
        signal: context.signal,
      });
      if (!response.ok) return failureOf(await readGraphError(response), 'the account insights read');
      const values = insightValues(await readJson(response));
      if (!values) return unavailable('Threads answered the account insights read unreadably.');
      return {
        kind: 'metrics',
        metrics: cleanMetricValues({ followers: values.followers_count }, ACCOUNT_METRIC_NAMES),
      };
    } catch (error) {
      if (error instanceof NoAnswerError || error instanceof RequestNotSentError) return unreachable(error);
      throw error;
    }
  }

  return { readPostMetrics, readAccountMetrics };
}
