import { MAX_QUEUE_DELAY_SECONDS } from './delivery-effects.js';
import type { PendingState, PostError } from './posts.js';

/**
 * A post the network is still processing (a video transcoding, a container being prepared) is
 * checked again this many times at most (docs/delivery.md "Pending: processed at the network")...
 */
export const MAX_PENDING_CHECKS = 60;
/** ...and for this long at most after the first `pending` answer, whichever comes first. */
export const MAX_PENDING_MS = 2 * 60 * 60 * 1000;
/** A network's `checkAfterSeconds` is kept within these: no busy loop, and within one queue delay. */
export const PENDING_CHECK_MIN_SECONDS = 5;
export const PENDING_CHECK_MAX_SECONDS = MAX_QUEUE_DELAY_SECONDS;
/** When a network names no usable wait. */
export const PENDING_CHECK_DEFAULT_SECONDS = 30;

export type PendingDecision =
  | { kind: 'check'; delaySeconds: number; pending: PendingState }
  | { kind: 'fail'; error: PostError };

/**
 * What to do after the network answered `pending`: check again after its wait (clamped; never past
 * the deadline, so the last check falls on it), or, past MAX_PENDING_CHECKS answers or
 * MAX_PENDING_MS since the first, fail with PLATFORM_PROCESSING_TIMEOUT, retryable (the network may
 * finish later; posting again starts over).
 */
export function decideAfterPending(
  previous: PendingState | undefined,
  answer: { checkAfterSeconds: number; stage: string },
  now: number,
): PendingDecision {
  const checks = (previous?.checks ?? 0) + 1;
  const since = previous?.since ?? new Date(now).toISOString();
  const remainingMs = Date.parse(since) + MAX_PENDING_MS - now;
  if (checks > MAX_PENDING_CHECKS || remainingMs <= 0) {
    const minutes = Math.round((now - Date.parse(since)) / 60_000);
    return {
      kind: 'fail',
      error: {
        origin: 'platform',
        code: 'PLATFORM_PROCESSING_TIMEOUT',
        message: `The network was still processing the post after ${checks - 1} checks over ${minutes} min.`,
        retryable: true,
      },
    };
  }
  const asked = Number.isFinite(answer.checkAfterSeconds)
    ? Math.ceil(answer.checkAfterSeconds)
    : PENDING_CHECK_DEFAULT_SECONDS;
  const clamped = Math.min(PENDING_CHECK_MAX_SECONDS, Math.max(PENDING_CHECK_MIN_SECONDS, asked));
  return {
    kind: 'check',
    delaySeconds: Math.min(clamped, Math.ceil(remainingMs / 1000)),
    pending: { checks, since, stage: answer.stage, checkDue: true },
  };
}
