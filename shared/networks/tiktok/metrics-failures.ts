import type { PostMetricsAnswer } from '../../ports/connector.js';
import type { TikTokAnswer } from './api.js';
import { TIKTOK_RATE_LIMIT_RETRY_SECONDS } from './limits.js';

export type MetricsFailed = Extract<PostMetricsAnswer, { kind: 'failed' }>;

/** What a metrics read was asking for, for our message (TikTok's own text is never passed on). */
export interface MetricsRead {
  /** e.g. "the video query". */
  what: string;
  /** The scope this request needs, named when TikTok says it was not granted. */
  scope: string;
}

/**
 * A TikTok error answer to a metrics read as the connector's `failed` (docs/metrics.md "TikTok"):
 * by `error.code` first, since TikTok's status and code usually agree but the code is the contract
 * (Error Handling page), then by status for answers without the envelope.
 */
export function metricsFailureOf(
  answer: TikTokAnswer,
  retryAfter: string | null,
  read: MetricsRead,
): MetricsFailed {
  const code = answer.code;
  if (code === 'scope_not_authorized' || code === 'scope_permission_missed') {
    return {
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: [read.scope],
      message: `TikTok refused ${read.what}: the account did not grant ${read.scope} (reconnect it to add it).`,
    };
  }
  if (code === 'access_token_invalid' || answer.status === 401) {
    return {
      kind: 'failed',
      failure: 'auth_failed',
      message: `TikTok refused the account's access token at ${read.what}.`,
    };
  }
  if (code === 'rate_limit_exceeded' || answer.status === 429) {
    return {
      kind: 'failed',
      failure: 'rate_limited',
      retryAfterSeconds: retryAfterSeconds(retryAfter),
      message: `TikTok's per-minute limit for ${read.what} was reached.`,
    };
  }
  if (answer.status >= 500 || code === 'internal_error')
    return unavailable(`TikTok failed with a server error at ${read.what}.`);
  if (answer.status >= 400 || code === 'invalid_params')
    return unavailable(`TikTok refused ${read.what} as invalid.`);
  return unavailable(`TikTok gave an unexpected answer at ${read.what}.`);
}

export function unavailable(message: string): MetricsFailed {
  return { kind: 'failed', failure: 'unavailable', message };
}

/**
 * TikTok sends no Retry-After (Rate Limits page: a one-minute sliding window, then 429
 * `rate_limit_exceeded`), so a minute always suffices; a header, should one come, is honoured.
 */
function retryAfterSeconds(header: string | null): number {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isInteger(seconds) && seconds > 0 ? seconds : TIKTOK_RATE_LIMIT_RETRY_SECONDS;
}
