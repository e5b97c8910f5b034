/**
 * X's rate-limit headers (twitter.md §4): `x-rate-limit-limit`, `-remaining` and `-reset` (Unix
 * epoch seconds when the window resets), on every answer.
 */
export interface XRateLimit {
  limit?: number;
  remaining?: number;
  /** Epoch seconds. */
  resetAt?: number;
}

/** When X gives no reset time with a 429: its docs' example waits at least a minute. */
export const X_DEFAULT_RETRY_AFTER_SECONDS = 60;

function headerNumber(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

export function readRateLimit(headers: Headers): XRateLimit {
  const limit = headerNumber(headers, 'x-rate-limit-limit');
  const remaining = headerNumber(headers, 'x-rate-limit-remaining');
  const resetAt = headerNumber(headers, 'x-rate-limit-reset');
  return {
    ...(limit !== undefined && { limit }),
    ...(remaining !== undefined && { remaining }),
    ...(resetAt !== undefined && { resetAt }),
  };
}

/** Whole seconds until the window resets (at least 1), or the default when X did not say. */
export function secondsUntilReset(rateLimit: XRateLimit, nowMs: number): number {
  if (rateLimit.resetAt === undefined) return X_DEFAULT_RETRY_AFTER_SECONDS;
  return Math.max(1, Math.ceil(rateLimit.resetAt - nowMs / 1000));
}

/** The window is spent and has not reset yet: the next call would be refused with a 429. */
export function isExhausted(rateLimit: XRateLimit | undefined, nowMs: number): rateLimit is XRateLimit {
  return rateLimit?.remaining === 0 && rateLimit.resetAt !== undefined && rateLimit.resetAt * 1000 > nowMs;
}
