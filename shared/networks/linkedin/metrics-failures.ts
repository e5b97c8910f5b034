import type { PostMetricsAnswer } from '../../ports/connector.js';
import type { LinkedInErrorFacts } from './errors.js';

export type FailedMetricsAnswer = Extract<PostMetricsAnswer, { kind: 'failed' }>;

/**
 * LinkedIn's limits are per day and reset at midnight UTC (networks/linkedin.md §7) and its 429
 * carries no Retry-After: without one, the wait is until that reset, when the next read can work.
 */
export function secondsUntilUtcMidnight(nowMs: number): number {
  const next = new Date(nowMs);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - nowMs) / 1000));
}

export function failedMetrics(
  failure: FailedMetricsAnswer['failure'],
  message: string,
  extra: Pick<FailedMetricsAnswer, 'missingScopes' | 'retryAfterSeconds'> = {},
): FailedMetricsAnswer {
  return { kind: 'failed', failure, message, ...extra };
}

/**
 * A LinkedIn error answer to a metrics read as the documented outcome (docs/metrics.md): 401 the
 * token refused, 403 the permission missing (ACCESS_DENIED: the read's scope), 429 a limit, the
 * rest unavailable for the next collection to try again. Our words only: LinkedIn's text is never
 * passed on. A 404 on a post is not here: the reader lists that post as not found.
 */
export function metricsFailureOf(
  facts: LinkedInErrorFacts,
  read: { what: string; scope: string; nowMs: number },
): FailedMetricsAnswer {
  if (facts.status === 401) {
    return failedMetrics('auth_failed', `LinkedIn refused the account's access token reading ${read.what}.`);
  }
  if (facts.status === 403) {
    return failedMetrics(
      'missing_scopes',
      `LinkedIn refused to read ${read.what}: the account lacks the permission ${read.scope} (reconnect it through the Community Management app) or, for a Page, the ADMINISTRATOR role.`,
      { missingScopes: [read.scope] },
    );
  }
  if (facts.status === 429) {
    return failedMetrics('rate_limited', `LinkedIn's daily limit for reading ${read.what} was reached.`, {
      retryAfterSeconds: facts.retryAfterSeconds ?? secondsUntilUtcMidnight(read.nowMs),
    });
  }
  if (facts.status === 426) {
    return failedMetrics(
      'unavailable',
      `LinkedIn no longer serves the API version this service uses for ${read.what}.`,
    );
  }
  if (facts.status >= 500) {
    return failedMetrics('unavailable', `LinkedIn failed with a server error reading ${read.what}.`);
  }
  return failedMetrics('unavailable', `LinkedIn refused to read ${read.what} (HTTP ${facts.status}).`);
}

/** No answer (a time-out, a reset, the signal): the next collection tries again. */
export function noAnswer(what: string): FailedMetricsAnswer {
  return failedMetrics('unavailable', `LinkedIn did not answer the read of ${what}.`);
}
