import type { PostMetricsAnswer } from '../../ports/connector.js';
import type { GoogleErrorFacts } from './errors.js';
import { secondsUntilPacificMidnight, YOUTUBE_RATE_LIMIT_RETRY_SECONDS } from './limits.js';
import { YOUTUBE_ANALYTICS_SCOPE, YOUTUBE_READONLY_SCOPE } from './scopes.js';

export type MetricsFailed = Extract<PostMetricsAnswer, { kind: 'failed' }>;

/** What a metrics read was, for our message: Google's own text is never passed on. */
export type MetricsRead = 'video statistics' | 'channel statistics' | 'video analytics';

/** The scope each read needs: the Data API's statistics read-only access, the Analytics report its own. */
const SCOPE_OF_READ: Readonly<Record<MetricsRead, string>> = {
  'video statistics': YOUTUBE_READONLY_SCOPE,
  'channel statistics': YOUTUBE_READONLY_SCOPE,
  'video analytics': YOUTUBE_ANALYTICS_SCOPE,
};

/** Reasons Google gives a token without the scope a call needs (the old and the newer spelling). */
const SCOPE_MISSING = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT']);
/** Reasons that say the channel itself cannot be read: only reconnecting (or a channel) helps. */
const ACCOUNT_UNUSABLE = new Set([
  'authenticatedUserAccountClosed',
  'authenticatedUserAccountSuspended',
  'authenticatedUserNotChannel',
]);
/** Short throttling: Google's per-user and per-project rates (not the daily quota). */
const THROTTLED = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'RESOURCE_EXHAUSTED']);

/** Retry-After in whole seconds, when the answer carries one (Google's usually does not). */
export function retryAfterOf(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * A Google error answer to a statistics read as one of the metrics' documented failures
 * (docs/metrics.md "YouTube"). `nowMs` places the daily quota's reset at midnight Pacific time.
 */
export function metricsFailureOf(
  facts: GoogleErrorFacts,
  read: MetricsRead,
  retryAfterSeconds: number | undefined,
  nowMs: number,
): MetricsFailed {
  const reason = facts.reason ?? '';
  if (facts.status === 401) {
    return failed('auth_failed', `YouTube refused the account's access token at the ${read} read.`);
  }
  if (SCOPE_MISSING.has(reason)) {
    return {
      ...failed('missing_scopes', `The YouTube account did not grant the permission the ${read} need.`),
      missingScopes: [SCOPE_OF_READ[read]],
    };
  }
  if (ACCOUNT_UNUSABLE.has(reason)) {
    return failed('auth_failed', 'The YouTube account is closed, suspended or has no channel.');
  }
  if (reason === 'quotaExceeded') {
    return {
      ...failed(
        'rate_limited',
        "The service's daily YouTube API quota is used up until midnight Pacific time.",
      ),
      retryAfterSeconds: retryAfterSeconds ?? secondsUntilPacificMidnight(nowMs),
    };
  }
  if (THROTTLED.has(reason) || facts.status === 429) {
    return {
      ...failed('rate_limited', `YouTube asked for fewer requests at the ${read} read.`),
      retryAfterSeconds: retryAfterSeconds ?? YOUTUBE_RATE_LIMIT_RETRY_SECONDS,
    };
  }
  if (facts.status >= 500)
    return failed('unavailable', `YouTube failed with a server error at the ${read} read.`);
  return failed('unavailable', `YouTube refused the ${read} read (HTTP ${facts.status}).`);
}

export function failed(failure: MetricsFailed['failure'], message: string): MetricsFailed {
  return { kind: 'failed', failure, message };
}
