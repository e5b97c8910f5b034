/**
 * When a failed webhook delivery is tried again (interface section 6: "retried with exponential
 * backoff for up to about 24 hours"; issue 10: first retry within about 30 s).
 *
 * The wait before retry n doubles from 30 s and is capped at 4 h; 15 attempts in all. Each attempt
 * is anchored to the FIRST attempt's time (its nominal offset below), so slow attempts and jitter
 * never add up: the last attempt lands about 24 h 15 min after the first whatever happened between.
 *
 * | attempt | wait before it | nominal time after the first attempt |
 * | ------- | -------------- | ------------------------------------ |
 * | 1       | —              | 0 (the first attempt)                |
 * | 2       | 30 s           | 30 s                                 |
 * | 3       | 1 min          | 1 min 30 s                           |
 * | 4       | 2 min          | 3 min 30 s                           |
 * | 5       | 4 min          | 7 min 30 s                           |
 * | 6       | 8 min          | 15 min 30 s                          |
 * | 7       | 16 min         | 31 min 30 s                          |
 * | 8       | 32 min         | 1 h 3 min 30 s                       |
 * | 9       | 1 h 4 min      | 2 h 7 min 30 s                       |
 * | 10      | 2 h 8 min      | 4 h 15 min 30 s                      |
 * | 11      | 4 h            | 8 h 15 min 30 s                      |
 * | 12      | 4 h            | 12 h 15 min 30 s                     |
 * | 13      | 4 h            | 16 h 15 min 30 s                     |
 * | 14      | 4 h            | 20 h 15 min 30 s                     |
 * | 15      | 4 h            | 24 h 15 min 30 s                     |
 *
 * Jitter: each retry moves by up to ±10 % of its own wait (±3 s for the first, ±24 min for the
 * last), so deliveries that failed together (a receiver's outage) do not all come back together.
 * As each wait is at least the one before, a retry can never overtake the previous one. When the
 * service itself is behind (a backlog after its own outage), a retry still waits at least 30 s after
 * the failure, so a recovering receiver is not hit with the missed retries back to back.
 *
 * Retries wait in SQS, never in a sleeping function: `sqsDelayFor` cuts a wait into hops of at most
 * 15 minutes (SQS's ceiling), the message going back on the queue for what remains.
 */

const SECOND_MS = 1000;
const BASE_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 4 * 60 * 60;

/** Attempts in all, the first included; after the last failed one the delivery is `failed`. */
export const WEBHOOK_MAX_ATTEMPTS = 15;

/** Each retry lands within this fraction of its own wait either side of its nominal time. */
export const WEBHOOK_RETRY_JITTER = 0.1;

/** A retry never comes sooner than this after the attempt that failed. */
export const WEBHOOK_MIN_RETRY_GAP_SECONDS = BASE_DELAY_SECONDS;

/** SQS's longest delay for one message (DelaySeconds): 15 minutes. */
export const SQS_MAX_DELAY_SECONDS = 900;

export interface ScheduledAttempt {
  /** 1 for the first delivery, 2 for the first retry, … */
  attempt: number;
  /** Nominal wait after the previous attempt (0 for the first). */
  delaySeconds: number;
  /** Nominal time after the first attempt. */
  offsetSeconds: number;
}

function buildSchedule(): readonly ScheduledAttempt[] {
  const schedule: ScheduledAttempt[] = [{ attempt: 1, delaySeconds: 0, offsetSeconds: 0 }];
  for (let attempt = 2; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
    const delaySeconds = Math.min(BASE_DELAY_SECONDS * 2 ** (attempt - 2), MAX_DELAY_SECONDS);
    const previous = schedule[schedule.length - 1]?.offsetSeconds ?? 0;
    schedule.push({ attempt, delaySeconds, offsetSeconds: previous + delaySeconds });
  }
  return Object.freeze(schedule.map((entry) => Object.freeze(entry)));
}

/** The nominal schedule, one row per attempt (the table above; docs/webhooks.md prints it). */
export const WEBHOOK_RETRY_SCHEDULE: readonly ScheduledAttempt[] = buildSchedule();

export type NextWebhookAttempt =
  | {
      kind: 'retry';
      /** The number of the attempt to come. */
      attempt: number;
      /** When it is due (what the delivery record shows as `nextAttemptAt`). */
      atMs: number;
      /** Whole seconds from now until then (never less than the minimum gap). */
      delaySeconds: number;
    }
  | { kind: 'give_up' };

/**
 * What follows the failure of attempt `attemptNumber` (1-based) of a delivery whose first attempt
 * was made at `firstAttemptAtMs`. `random` returns a number in [0, 1), as `Math.random` does; tests
 * pass a fixed one.
 */
export function nextWebhookAttempt(
  attemptNumber: number,
  firstAttemptAtMs: number,
  nowMs: number,
  random: () => number,
): NextWebhookAttempt {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError('attemptNumber counts attempts from 1.');
  }
  const next = WEBHOOK_RETRY_SCHEDULE[attemptNumber];
  if (!next) return { kind: 'give_up' };
  const jitterMs = (random() * 2 - 1) * WEBHOOK_RETRY_JITTER * next.delaySeconds * SECOND_MS;
  const anchoredMs = firstAttemptAtMs + next.offsetSeconds * SECOND_MS + jitterMs;
  const atMs = Math.round(Math.max(anchoredMs, nowMs + WEBHOOK_MIN_RETRY_GAP_SECONDS * SECOND_MS));
  return {
    kind: 'retry',
    attempt: next.attempt,
    atMs,
    delaySeconds: Math.ceil((atMs - nowMs) / SECOND_MS),
  };
}

export interface SqsHop {
  /** DelaySeconds for this send: 0–900. */
  delaySeconds: number;
  /** What is still to wait once this hop ends; more than 0 means the consumer sends it again. */
  remainingMs: number;
}

/**
 * The next hop of a wait through SQS. A message due in more than 15 minutes is sent with the
 * longest delay; its consumer, finding it still early, sends it again with what remains. Seconds
 * are rounded up, so a message never arrives before it is due.
 */
export function sqsDelayFor(waitMs: number): SqsHop {
  const waitSeconds = Math.max(0, Math.ceil(waitMs / SECOND_MS));
  const delaySeconds = Math.min(waitSeconds, SQS_MAX_DELAY_SECONDS);
  return { delaySeconds, remainingMs: Math.max(0, waitMs - delaySeconds * SECOND_MS) };
}
