import type { Post } from './posts.js';

/** Scheduler fires somewhere inside the target minute: aim a minute early and let the worker hold. */
export const SCHEDULE_LEAD_MS = 60_000;
/** SQS's longest delay: anything due sooner needs no schedule, a delayed message is enough. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** What a change of a post asks of the delivery side (DESIGN.md "Data flow", the outbox). */
export interface DeliveryEffects {
  /** Put a delivery message on the queue, delayed this many seconds (0–900). */
  enqueue?: { delaySeconds: number };
  /** Create or move the post's one-time schedule. */
  schedule?: { fireAt: Date };
  /** Delete the post's schedule. */
  unschedule?: boolean;
}

function delayUntil(dueMs: number, now: number): number {
  return Math.max(0, Math.ceil((dueMs - now) / 1000));
}

/**
 * A scheduled post's delay rounds down: its message arrives up to a second early and the worker
 * waits in place until scheduledAt (hold-until-due.ts), so it starts on time rather than up to a
 * second late, and never before. (A retry's time needs no such precision: it rounds up.)
 */
function delayBefore(dueMs: number, now: number): number {
  return Math.max(0, Math.floor((dueMs - now) / 1000));
}

/**
 * - entering queued (or queued again for a retry): a message, delayed to the next attempt time;
 * - entering scheduled, or rescheduled: a message delayed to scheduledAt (in whole seconds, rounded
 *   down) when that is at most 15 minutes away, else a one-time schedule a minute before it (the
 *   worker holds early messages);
 * - leaving scheduled other than by delivery: the schedule goes.
 */
export function deliveryEffects(before: Post | undefined, after: Post, now: number): DeliveryEffects {
  const effects: DeliveryEffects = {};
  if (after.status === 'queued' && (before?.status !== 'queued' || before.version !== after.version)) {
    const due = after.delivery?.nextAttemptAt ? Date.parse(after.delivery.nextAttemptAt) : now;
    effects.enqueue = { delaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, delayUntil(due, now)) };
  }
  const hadSchedule = before?.status === 'scheduled';
  if (after.status === 'scheduled' && after.scheduledAt) {
    const moved = !hadSchedule || before?.scheduledAt !== after.scheduledAt;
    const due = Date.parse(after.scheduledAt);
    if (moved && delayBefore(due, now) <= MAX_QUEUE_DELAY_SECONDS) {
      effects.enqueue = { delaySeconds: delayBefore(due, now) };
      if (hadSchedule) effects.unschedule = true;
    } else if (moved) {
      effects.schedule = { fireAt: new Date(due - SCHEDULE_LEAD_MS) };
    }
  }
  if (hadSchedule && after.status !== 'scheduled' && after.status !== 'publishing') effects.unschedule = true;
  return effects;
}
