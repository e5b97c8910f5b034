import { SCHEDULE_LEAD_MS, WAIT_IN_PLACE_MS } from './delivery-effects.js';
import type { MetricsFailureKind, MetricsReading, PostMetricsState, PostMetricValues } from './metrics.js';

/**
 * When a published post's metrics are collected (docs/metrics.md "How collection works"): at these
 * times after publishedAt, then no more. Numbers move most in the first hours and hardly at all
 * after a month; six reads a post keep paid and quota-counted reads few.
 */
export const METRICS_SLOTS_SECONDS = [
  60 * 60,
  6 * 60 * 60,
  24 * 60 * 60,
  3 * 24 * 60 * 60,
  7 * 24 * 60 * 60,
  30 * 24 * 60 * 60,
] as const;

/** A rate-limited read that said not how long to wait tries again after this. */
export const METRICS_RATE_LIMIT_BACKOFF_SECONDS = 15 * 60;
/** After the last slot a rate-limited read may still try again within this long, then the schedule ends. */
export const METRICS_LAST_RETRY_WINDOW_SECONDS = 24 * 60 * 60;
/** Posts of one account due within this long of the one due now are read in the same request. */
export const METRICS_BATCH_WINDOW_MS = 15 * 60 * 1000;
/**
 * A collection's message read this early is read at once: its schedule aims a minute early
 * (SCHEDULE_LEAD_MS), as a scheduled post's does, but a reading a minute before its slot is as good
 * as one at it, and holding the message for the minute cost a send, a receive, a delete and a worker
 * run per slot (docs/cost.md "Collecting a post's metrics"). The next slot follows the one due.
 */
export const METRICS_EARLY_READ_MS = SCHEDULE_LEAD_MS + WAIT_IN_PLACE_MS;

export type MetricsCollection = NonNullable<PostMetricsState['collection']>;

/** What one collection found for a post. */
export type CollectionOutcome =
  | { kind: 'read' }
  | { kind: 'failed'; failure: MetricsFailureKind; retryAfterSeconds?: number };

/** Failures no later read can mend by itself: the schedule stops, the problem stays on the post. */
const STOPPING_FAILURES: ReadonlySet<MetricsFailureKind> = new Set([
  'missing_scopes',
  'auth_failed',
  'not_found',
]);

/** The first slot strictly after `now`, or none once the last has passed. */
export function nextSlotAfter(publishedAt: string, now: number): number | undefined {
  const published = Date.parse(publishedAt);
  return METRICS_SLOTS_SECONDS.map((seconds) => published + seconds * 1000).find((slot) => slot > now);
}

/** The collection of a post published at `publishedAt`: its first slot. */
export function startCollection(publishedAt: string): MetricsCollection {
  const first = Date.parse(publishedAt) + METRICS_SLOTS_SECONDS[0] * 1000;
  return { checks: 0, nextCollectAt: new Date(first).toISOString() };
}

/** The collection of a post that became collectable only at `now` (its id came late): the first slot ahead. */
export function startCollectionAt(publishedAt: string, now: number): MetricsCollection | undefined {
  const slot = nextSlotAfter(publishedAt, now);
  return slot === undefined ? undefined : { checks: 0, nextCollectAt: new Date(slot).toISOString() };
}

/**
 * The collection after one at `now`:
 * - read, or `unavailable` (a time-out, a 5xx): the next slot after now, or none after the last;
 * - `rate_limited`: again after the network's wait (or METRICS_RATE_LIMIT_BACKOFF_SECONDS), unless
 *   the next slot comes first, which then does the read; after the last slot, within a day only;
 * - `missing_scopes`, `auth_failed`, `not_found`: none (the post keeps the problem).
 * Always a later time than `now`, so a collection never loops on itself.
 */
export function nextCollection(
  current: MetricsCollection | undefined,
  publishedAt: string,
  outcome: CollectionOutcome,
  now: number,
): MetricsCollection | undefined {
  const checks = (current?.checks ?? 0) + 1;
  if (outcome.kind === 'failed' && STOPPING_FAILURES.has(outcome.failure)) return undefined;
  const slot = nextSlotAfter(publishedAt, now);
  if (outcome.kind === 'failed' && outcome.failure === 'rate_limited') {
    const waitSeconds = Math.max(1, outcome.retryAfterSeconds ?? METRICS_RATE_LIMIT_BACKOFF_SECONDS);
    const retryAt = now + waitSeconds * 1000;
    const lastSlot = Date.parse(publishedAt) + (METRICS_SLOTS_SECONDS.at(-1) ?? 0) * 1000;
    const inTime =
      slot === undefined ? retryAt <= lastSlot + METRICS_LAST_RETRY_WINDOW_SECONDS * 1000 : retryAt < slot;
    if (inTime) return { checks, nextCollectAt: new Date(retryAt).toISOString() };
  }
  return slot === undefined ? undefined : { checks, nextCollectAt: new Date(slot).toISOString() };
}

/** Whether a collection is due at `now`, or within `withinMs` of it (a batch's companions). */
export function collectionDue(state: PostMetricsState | undefined, now: number, withinMs = 0): boolean {
  const next = state?.collection?.nextCollectAt;
  return next !== undefined && Date.parse(next) <= now + withinMs;
}

/** The readings a post keeps, newest last: the schedule's six and refreshes, within an item's size. */
export const METRICS_READINGS_KEPT = 60;

/**
 * The post's metrics after one collection at `now`: the reading appended (if there was one, the
 * oldest dropped past METRICS_READINGS_KEPT), the next collection or none, and the problem set to
 * the failure or cleared by the reading. `problem` stays absent for a try the service itself put
 * off (`failure` undefined: no network answer to report).
 */
export function afterCollection(
  state: PostMetricsState | undefined,
  collection: MetricsCollection | undefined,
  result:
    | { kind: 'read'; reading: MetricsReading<PostMetricValues> }
    | { kind: 'failed'; failure: MetricsFailureKind; missingScopes?: readonly string[] }
    | { kind: 'put_off' },
  now: number,
): PostMetricsState {
  const readings = state?.readings ?? [];
  const { collection: _earlier, problem: earlierProblem, ...rest } = state ?? { readings };
  const next: PostMetricsState = { ...rest, readings, ...(collection && { collection }) };
  if (result.kind === 'read')
    return { ...next, readings: [...readings, result.reading].slice(-METRICS_READINGS_KEPT) };
  if (result.kind === 'put_off') return { ...next, ...(earlierProblem && { problem: earlierProblem }) };
  return {
    ...next,
    problem: {
      failure: result.failure,
      at: new Date(now).toISOString(),
      ...(result.missingScopes && result.missingScopes.length > 0 && { missingScopes: result.missingScopes }),
    },
  };
}

/** When the post's metrics were last asked of the network (a reading, or a failure), if ever. */
export function lastCollectedAt(state: PostMetricsState | undefined): number | undefined {
  const times = [state?.readings.at(-1)?.collectedAt, state?.problem?.at]
    .filter((time): time is string => time !== undefined)
    .map((time) => Date.parse(time));
  return times.length > 0 ? Math.max(...times) : undefined;
}
