import type { PostError } from './posts.js';

/**
 * How a network call failed, in the worker's terms:
 * - `transient`: 5xx, time-out; retry with backoff;
 * - `rate_limited`: the network throttled us; retry after its wait, for about 15 minutes;
 * - `permanent`: the network refused the post; resending the same will not help;
 * - `auth_revoked`: the account's token is dead; the account is disconnected;
 * - `auth_rejected`: the network refused the access token (a 401): the worker refreshes the token
 *   once and tries again; if the refresh is refused too, it is `auth_revoked`.
 */
export type PublishFailureKind =
  | 'transient'
  | 'rate_limited'
  | 'permanent'
  | 'auth_revoked'
  | 'auth_rejected';

/** The knobs of the retry policy; production uses DEFAULT_RETRY_POLICY, tests shorten the waits. */
export interface RetryPolicy {
  /** Transient failures (5xx, time-outs): this many attempts in all, then the post fails. */
  maxTransientAttempts: number;
  transientBaseSeconds: number;
  transientCapSeconds: number;
  /** A rate-limited post is retried for about this long (interface 3.3 and 8.6). */
  rateLimitWindowMs: number;
  rateLimitMinWaitSeconds: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxTransientAttempts: 6,
  transientBaseSeconds: 5,
  transientCapSeconds: 300,
  rateLimitWindowMs: 15 * 60 * 1000,
  rateLimitMinWaitSeconds: 30,
};

export const MAX_TRANSIENT_ATTEMPTS = DEFAULT_RETRY_POLICY.maxTransientAttempts;
export const RATE_LIMIT_WINDOW_MS = DEFAULT_RETRY_POLICY.rateLimitWindowMs;

export interface FailureFacts {
  failure: PublishFailureKind;
  code: string;
  message: string;
  platformRawCode?: string;
  retryAfterSeconds?: number;
}

export type RetryDecision =
  | { kind: 'retry'; delaySeconds: number; rateLimitedSince?: string }
  | { kind: 'fail'; error: PostError };

/** Exponential backoff with full jitter: a random wait in [base·2^(n−1)/2, base·2^(n−1)], capped. */
export function transientBackoffSeconds(
  attempt: number,
  random: () => number = Math.random,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number {
  const ceiling = Math.min(
    policy.transientCapSeconds,
    policy.transientBaseSeconds * 2 ** Math.max(0, attempt - 1),
  );
  return Math.max(1, Math.ceil(ceiling / 2 + (random() * ceiling) / 2));
}

/**
 * What to do after attempt `attempt` failed:
 * - transient: retry with backoff until MAX_TRANSIENT_ATTEMPTS, then fail (retryable: it may work later);
 * - rate limited: retry after the network's wait (at least 30 s, with jitter) until about 15 minutes
 *   after the first refusal, then fail with origin platform, code RATE_LIMITED, retryable true;
 * - permanent and revoked authorisation: fail at once, retryable false;
 * - a refused access token: the worker refreshes it and tries again within the same attempt
 *   (docs/delivery.md "Credentials"), so one that reaches the policy is one a fresh token did not
 *   fix: it fails at once too.
 */
export function decideAfterFailure(
  facts: FailureFacts,
  context: { attempt: number; now: number; rateLimitedSince?: string },
  random: () => number = Math.random,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): RetryDecision {
  const error = (retryable: boolean): PostError => ({
    origin: 'platform',
    code: facts.code,
    message: facts.message,
    ...(facts.platformRawCode && { platformRawCode: facts.platformRawCode }),
    retryable,
  });
  switch (facts.failure) {
    case 'transient':
      if (context.attempt >= policy.maxTransientAttempts) return { kind: 'fail', error: error(true) };
      return { kind: 'retry', delaySeconds: transientBackoffSeconds(context.attempt, random, policy) };
    case 'rate_limited': {
      const since = context.rateLimitedSince ?? new Date(context.now).toISOString();
      const wait = Math.max(policy.rateLimitMinWaitSeconds, facts.retryAfterSeconds ?? 0);
      const jittered = Math.ceil(wait * (1 + random() * 0.2));
      if (context.now + jittered * 1000 - Date.parse(since) > policy.rateLimitWindowMs) {
        return { kind: 'fail', error: { ...error(true), code: 'RATE_LIMITED' } };
      }
      return { kind: 'retry', delaySeconds: jittered, rateLimitedSince: since };
    }
    case 'permanent':
    case 'auth_revoked':
    case 'auth_rejected':
      return { kind: 'fail', error: error(false) };
  }
}
