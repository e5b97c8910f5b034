import {
  ACCOUNT_METRIC_NAMES,
  type AccountMetricValues,
  cleanMetricValues,
  POST_METRIC_NAMES,
  type PostMetricValues,
} from '../../domain/metrics.js';
import type { Account } from '../../domain/tenancy.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  MetricsTarget,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import type { GraphContext } from './graph.js';
import { accountCounts, mediaInsights, productTypeOf } from './insights.js';
import {
  isGoneMedia,
  isPermissionRefusal,
  type MetricsFailed,
  metricsFailureOf,
  metricsUnavailable,
  missingInsightsScope,
} from './metrics-failure.js';
import {
  INSTAGRAM_ACCOUNT_FIELDS,
  INSTAGRAM_INSIGHTS_SCOPE,
  type InstagramProductType,
} from './metrics-fields.js';

/** Instagram's insights by its names → ours (saved → saves; the reel watch time from ms to seconds). */
export function postMetricsFromInsights(insights: Readonly<Record<string, unknown>>): PostMetricValues {
  const watchMs = insights.ig_reels_video_view_total_time;
  return cleanMetricValues(
    {
      views: insights.views,
      reach: insights.reach,
      likes: insights.likes,
      comments: insights.comments,
      shares: insights.shares,
      saves: insights.saved,
      watchTimeSeconds: typeof watchMs === 'number' ? Math.round(watchMs / 1000) : undefined,
    },
    POST_METRIC_NAMES,
  );
}

export function accountMetricsFromMe(me: Readonly<Record<string, unknown>>): AccountMetricValues {
  const values: Partial<Record<string, unknown>> = {};
  for (const [ours, theirs] of Object.entries(INSTAGRAM_ACCOUNT_FIELDS)) values[ours] = me[theirs];
  return cleanMetricValues(values, ACCOUNT_METRIC_NAMES);
}

type PostReading = { kind: 'read'; values: PostMetricValues } | { kind: 'gone' } | MetricsFailed;

/** The account's granted scopes, when recorded, that lack the insights permission: no call can succeed. */
function lacksInsightsScope(account: Account): boolean {
  return account.scopes !== undefined && !account.scopes.includes(INSTAGRAM_INSIGHTS_SCOPE);
}

async function readOne(context: GraphContext, target: MetricsTarget, account: Account): Promise<PostReading> {
  const typed = await productTypeOf(context, target.platformPostId);
  if (!typed.ok) {
    if (!('error' in typed)) return metricsUnavailable('Instagram answered the media read unreadably.');
    return isGoneMedia(typed.error) ? { kind: 'gone' } : metricsFailureOf(typed.error, 'the media read');
  }
  // An ad or a type Instagram gives no insights for: nothing to read, which is not zero.
  if (typed.value === undefined) return { kind: 'read', values: {} };
  const type: InstagramProductType = typed.value;
  const insights = await mediaInsights(context, target.platformPostId, type);
  if (insights.ok) return { kind: 'read', values: postMetricsFromInsights(insights.value) };
  if (!('error' in insights)) return metricsUnavailable('Instagram answered the insights read unreadably.');
  const error = insights.error;
  if (isGoneMedia(error)) return { kind: 'gone' };
  // A story seen by fewer than 5 accounts answers code 10 too ("Not enough viewers"): with the
  // permission known to be granted, that is a story without numbers yet, not a missing scope.
  if (type === 'STORY' && isPermissionRefusal(error) && account.scopes?.includes(INSTAGRAM_INSIGHTS_SCOPE)) {
    return { kind: 'read', values: {} };
  }
  return metricsFailureOf(error, 'the insights read');
}

function unreachable(error: unknown, signal: AbortSignal): MetricsFailed {
  if (signal.aborted) return metricsUnavailable('The metrics read was stopped before Instagram answered.');
  if (error instanceof RequestNotSentError) return metricsUnavailable('Instagram could not be reached.');
  return metricsUnavailable('Instagram did not answer the metrics read.');
}

const isNetworkError = (error: unknown) =>
  error instanceof NoAnswerError || error instanceof RequestNotSentError;

function contextOf(
  api: GraphContext['api'],
  request: PostMetricsRequest | AccountMetricsRequest,
): GraphContext | undefined {
  if (!request.credentials) return undefined;
  return {
    api,
    accessToken: request.credentials.accessToken,
    userId: request.account.networkUserId ?? 'me',
    signal: request.signal,
  };
}

const NO_TOKEN: MetricsFailed = {
  kind: 'failed',
  failure: 'auth_failed',
  message: 'The Instagram account has no access token to read metrics with.',
};

/**
 * The connector's metrics readers (docs/metrics.md "Instagram"). Instagram reads one media per
 * request (batchSize 1): a request of several posts is read one by one, in order, and the first
 * failure that concerns the account (token, permission, throttle, no answer) ends it, since the
 * rest would fail alike. A media Instagram no longer has goes to `notFound`.
 */
export function makeInstagramMetrics(deps: { api: GraphContext['api'] }) {
  async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    const context = contextOf(deps.api, request);
    if (!context) return NO_TOKEN;
    if (lacksInsightsScope(request.account)) return missingInsightsScope();
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    try {
      for (const target of request.posts) {
        if (request.signal.aborted) return unreachable(undefined, request.signal);
        const reading = await readOne(context, target, request.account);
        if (reading.kind === 'failed') return reading;
        if (reading.kind === 'gone') notFound.push(target.postId);
        else byPost[target.postId] = reading.values;
      }
    } catch (error) {
      if (isNetworkError(error)) return unreachable(error, request.signal);
      throw error;
    }
    return { kind: 'metrics', byPost, notFound };
  }

  async function readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    const context = contextOf(deps.api, request);
    if (!context) return NO_TOKEN;
    try {
      const me = await accountCounts(context);
      if (me.ok) return { kind: 'metrics', metrics: accountMetricsFromMe(me.value) };
      if (!('error' in me)) return metricsUnavailable('Instagram answered the account read unreadably.');
      const failure = metricsFailureOf(me.error, 'the account read');
      // /me needs only instagram_business_basic: a permission refusal there is not the insights scope.
      return failure.failure === 'missing_scopes'
        ? {
            ...failure,
            missingScopes: ['instagram_business_basic'],
            message: 'The Instagram account was not granted instagram_business_basic: reconnect it.',
          }
        : failure;
    } catch (error) {
      if (isNetworkError(error)) return unreachable(error, request.signal);
      throw error;
    }
  }

  return { readPostMetrics, readAccountMetrics };
}
