import { NetworkError, retryAfterSeconds } from './errors.js';

/** The interface's recommended client retry; every number can be changed. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 5). 0 turns retrying off. */
  maxRetries: number;
  /** base in min(cap, base * 2^attempt + jitter), ms (default 500). */
  baseDelayMs: number;
  /** cap, ms (default 30 000). A longer Retry-After is still honoured. */
  maxDelayMs: number;
  /** One attempt's time limit, ms (default 30 000): past it the attempt counts as a network time-out. */
  attemptTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  attemptTimeoutMs: 30_000,
};

/** How the client waits and draws jitter; tests pass their own so nothing waits on the wall clock. */
export interface Timing {
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
  now(): number;
}

export const realTiming: Timing = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  now: Date.now,
};

/** The statuses worth another attempt: rate limited, or a transient server or upstream error. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
/** Methods whose repetition does no more than the first call (the interface: GET, DELETE, PATCH). */
const REPEATABLE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);

/** min(cap, base * 2^attempt + jitter), jitter drawn in [0, base); attempt 0 is the first retry. */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const jitter = random() * policy.baseDelayMs;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt + jitter);
}

/**
 * Whether this answer may be retried for this request. A POST without an Idempotency-Key is
 * retried only after 429: the service refused it before doing anything. After a 5xx or a time-out
 * it may have been done, and a second one could do it twice.
 */
function mayRetry(request: Request, outcome: { status: number } | 'timeout'): boolean {
  if (outcome !== 'timeout' && !RETRYABLE_STATUSES.has(outcome.status)) return false;
  if (REPEATABLE_METHODS.has(request.method) || request.headers.has('idempotency-key')) return true;
  return outcome !== 'timeout' && outcome.status === 429;
}

type Fetch = (request: Request) => Promise<Response>;

function isTimeout(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'TimeoutError');
}

/**
 * A fetch that retries per the policy. Every attempt sends the same method, URL, headers (the
 * Idempotency-Key included) and body bytes. After the last retry it answers the last response, or
 * throws NetworkError (timedOut) when that attempt timed out. A connection that fails outright
 * (refused, reset) is not retried: the interface names time-outs only.
 */
export function retryingFetch(baseFetch: Fetch, policy: RetryPolicy, timing: Timing): Fetch {
  return async (request) => {
    // Read once: a Request body is a stream, and each attempt needs the bytes again.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let attempt = 0; ; attempt += 1) {
      const timeout = AbortSignal.timeout(policy.attemptTimeoutMs);
      const attemptRequest = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: request.redirect,
        signal: AbortSignal.any([request.signal, timeout]),
      });
      const lastAttempt = attempt >= policy.maxRetries;
      let response: Response;
      try {
        response = await baseFetch(attemptRequest);
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (!isTimeout(error, timeout)) {
          throw new NetworkError(`${request.method} ${request.url} failed: no answer.`, false, {
            cause: error,
          });
        }
        if (lastAttempt || !mayRetry(request, 'timeout')) {
          throw new NetworkError(
            `${request.method} ${request.url} timed out after ${attempt + 1} attempt(s).`,
            true,
            { cause: error },
          );
        }
        await timing.sleep(backoffDelayMs(attempt, policy, timing.random));
        continue;
      }
      if (lastAttempt || !mayRetry(request, response)) return response;
      const backoff = backoffDelayMs(attempt, policy, timing.random);
      const retryAfter =
        response.status === 429 ? retryAfterSeconds(response.headers, timing.now()) : undefined;
      // Free the connection: this answer is not the one the caller gets.
      await response.body?.cancel();
      await timing.sleep(retryAfter === undefined ? backoff : Math.max(backoff, retryAfter * 1000));
    }
  };
}
