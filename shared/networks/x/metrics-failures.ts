import type { Account } from '../../domain/tenancy.js';
import type { PostMetricsAnswer } from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { problemAnswer } from './answers.js';
import type { XAnswer } from './api.js';
import { X_METRICS_SCOPES } from './metrics-fields.js';

export type MetricsFailure = Extract<PostMetricsAnswer, { kind: 'failed' }>;

/** Our words for the logs; never X's body, which may echo a post or say what we cannot vouch for. */
export const X_METRICS_MESSAGES = {
  missing_scopes:
    "X refused the metrics read: the account's token lacks a permission it needs; reconnect it.",
  rate_limited: 'X rate limit (or usage cap) reached for the metrics read.',
  auth_failed: "X refused the account's access token.",
  server_error: 'X answered the metrics read with a server error.',
  refused: 'X refused the metrics read as invalid.',
  bad_answer: 'X answered the metrics read with something the connector could not read.',
  no_answer: 'X did not answer the metrics read.',
  no_token: 'The X account has no access token to read metrics with.',
} as const;

function failure(
  kind: MetricsFailure['failure'],
  message: keyof typeof X_METRICS_MESSAGES,
  extra: Partial<Pick<MetricsFailure, 'missingScopes' | 'retryAfterSeconds'>> = {},
): MetricsFailure {
  return { kind: 'failed', failure: kind, message: X_METRICS_MESSAGES[message], ...extra };
}

const slugOf = (type: string | undefined) =>
  type && type !== 'about:blank' ? type.split('/').filter(Boolean).pop() : undefined;

/**
 * Which metrics scopes a 403 is about: those X's words name, else those the account's grant lacks,
 * else all of them (X does not always say, and a reconnect asks for every one).
 */
function missingScopesOf(answer: XAnswer, account: Account): string[] {
  const problem = problemAnswer.safeParse(answer.body).data;
  const words = [problem?.detail, problem?.title, ...(problem?.errors ?? []).map((error) => error.message)]
    .filter(Boolean)
    .join(' ');
  const named = X_METRICS_SCOPES.filter((scope) => words.includes(scope));
  if (named.length > 0) return named;
  const lacking = account.scopes ? X_METRICS_SCOPES.filter((scope) => !account.scopes?.includes(scope)) : [];
  return lacking.length > 0 ? lacking : [...X_METRICS_SCOPES];
}

/**
 * An error answer of a metrics read (docs/metrics.md "X"): 429 and X's `usage-capped` /
 * `rate-limit-exceeded` problems wait for `x-rate-limit-reset` (said only when X gave it); 401 is a
 * refused token; 403 a missing permission (X's `client-forbidden`); 5xx and 408 are passing; any
 * other refusal is ours to fix, and is retried at the next collection like a passing one.
 */
export function metricsFailureOfAnswer(answer: XAnswer, account: Account, nowMs: number): MetricsFailure {
  const problem = problemAnswer.safeParse(answer.body).data;
  const slug = slugOf(problem?.type) ?? slugOf(problem?.errors?.[0]?.type);
  if (answer.status === 429 || slug === 'usage-capped' || slug === 'rate-limit-exceeded') {
    const resetAt = answer.rateLimit.resetAt;
    return failure('rate_limited', 'rate_limited', {
      ...(resetAt !== undefined && { retryAfterSeconds: Math.max(1, Math.ceil(resetAt - nowMs / 1000)) }),
    });
  }
  if (answer.status === 401) return failure('auth_failed', 'auth_failed');
  if (answer.status === 403) {
    return failure('missing_scopes', 'missing_scopes', { missingScopes: missingScopesOf(answer, account) });
  }
  if (answer.status >= 500 || answer.status === 408) return failure('unavailable', 'server_error');
  return failure('unavailable', 'refused');
}

/**
 * Before any call: an account whose recorded grant lacks a metrics scope is answered without
 * asking X (X would refuse it with a 403). An account with no recorded scopes is asked.
 */
export function metricsScopesLacking(account: Account): MetricsFailure | undefined {
  const granted = account.scopes;
  if (!granted) return undefined;
  const lacking = X_METRICS_SCOPES.filter((scope) => !granted.includes(scope));
  return lacking.length > 0
    ? failure('missing_scopes', 'missing_scopes', { missingScopes: lacking })
    : undefined;
}

export function metricsBadAnswer(): MetricsFailure {
  return failure('unavailable', 'bad_answer');
}

export function metricsWithoutToken(): MetricsFailure {
  return failure('auth_failed', 'no_token');
}

/** No answer (not reached, time-out, the caller's signal): nothing settled, the next collection tries again. */
export function metricsFailureOfError(error: unknown): MetricsFailure {
  if (error instanceof RequestNotSentError || error instanceof NoAnswerError) {
    return failure('unavailable', 'no_answer');
  }
  throw error;
}
