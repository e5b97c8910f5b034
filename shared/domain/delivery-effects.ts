import { commentWake } from './first-comment.js';
import type { Post } from './posts.js';

/** Scheduler fires somewhere inside the target minute: aim a minute early and let the worker hold. */
export const SCHEDULE_LEAD_MS = 60_000;
/** SQS's longest delay: anything due sooner needs no schedule, a delayed message is enough. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** What a change of a post asks of the delivery side (docs/architecture.md#data-flow, the outbox). */
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
 * The worker puts an early message back so that it arrives this long before the post's time: it
 * waits until that many whole seconds plus this margin remain, then sends it with that delay. SQS
 * delays are whole seconds, so messages sent at scattered moments arrive scattered over a second;
 * sent at the same moment, the messages of posts sharing one time arrive together, in full
 * batches, and wait in place briefly (docs/delivery.md "Bursts"). The margin covers the send's, the
 * receive's and the read's own time, and SQS's own imprecision, even on a busy machine: on the
 * local host one process hands every batch over and starts its reads, and with 500 ms some of a
 * burst of 200 were received only after their time when other work shared its two cores.
 */
export const ALIGNED_ARRIVAL_MS = 1000;

/**
 * A message reaching the worker at most this early waits in place until the post's time
 * (hold-until-due.ts); an earlier one is put back, aligned, with a delay of a second at least.
 */
export const WAIT_IN_PLACE_MS = 1000 + ALIGNED_ARRIVAL_MS;

/**
 * A scheduled post's first message arrives three to four seconds before its time (the whole
 * seconds before it, rounded down, less these): more than WAIT_IN_PLACE_MS early even after the
 * stream's, the send's and the receive's own time, so the worker aligns it (ALIGNED_ARRIVAL_MS)
 * rather than holding a batch slot in place beside whatever else happened to arrive at that moment.
 * (A retry's time needs no such precision: it rounds up and arrives after it.)
 */
const FIRST_ARRIVAL_EARLY_SECONDS = 3;

function delayBefore(dueMs: number, now: number): number {
  return Math.max(0, wholeSecondsBefore(dueMs, now) - FIRST_ARRIVAL_EARLY_SECONDS);
}

function wholeSecondsBefore(dueMs: number, now: number): number {
  return Math.max(0, Math.floor((dueMs - now) / 1000));
}

/**
 * - entering queued (or queued again for a retry): a message, delayed to the next attempt time;
 * - entering scheduled, or rescheduled: a message delayed to three to four seconds before
 *   scheduledAt when that is at most 15 minutes away (the worker aligns and holds it), else a
 *   one-time schedule a minute before it (the worker holds early messages);
 * - leaving scheduled other than by delivery: the schedule goes;
 * - a published post whose network id is still to come (`delivery.postIdFollowUp`), at each new
 *   check time: a message delayed to it, or a one-time schedule a minute before it;
 * - a published post's first comment (`firstComment`), due or held by a worker, at its
 *   `nextAttemptAt`, on every write while it is so: the same (docs/first-comment.md);
 * - a published post's metrics collection (`metrics.collection`), at each new collection time, or
 *   once a comment that kept it waiting is settled: the same.
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
    if (moved && wholeSecondsBefore(due, now) <= MAX_QUEUE_DELAY_SECONDS) {
      effects.enqueue = { delaySeconds: delayBefore(due, now) };
      if (hadSchedule) effects.unschedule = true;
    } else if (moved) {
      effects.schedule = { fireAt: new Date(due - SCHEDULE_LEAD_MS) };
    }
  }
  if (hadSchedule && after.status !== 'scheduled' && after.status !== 'publishing') effects.unschedule = true;
  const followUpAt = after.status === 'published' ? after.delivery?.postIdFollowUp?.nextCheckAt : undefined;
  if (followUpAt && followUpAt !== before?.delivery?.postIdFollowUp?.nextCheckAt) {
    // A published post whose id is still to come: the worker asks the network again then.
    wakeAt(effects, Date.parse(followUpAt), now);
  }
  // A published post's first comment, due (or held by a worker that may die) at nextAttemptAt.
  const commentAt = commentWake(after);
  const commentWas = before ? commentWake(before) : undefined;
  // Any write while it is due wakes it again: a worker whose claim lost the race to that write (a
  // metrics refresh) dropped its message, and the collection waits for the comment.
  if (!followUpAt && commentAt && (commentAt !== commentWas || before?.version !== after.version)) {
    wakeAt(effects, Date.parse(commentAt), now);
  }
  const collectAt = after.status === 'published' ? after.metrics?.collection?.nextCollectAt : undefined;
  // Once a comment is settled, the collection it kept waiting is woken again.
  const commentSettled = commentWas !== undefined && commentAt === undefined;
  if (
    !followUpAt &&
    !commentAt &&
    collectAt &&
    (collectAt !== before?.metrics?.collection?.nextCollectAt || commentSettled)
  ) {
    // A published post's next metrics collection (metrics-schedule.ts). Its id comes first: a post
    // still waiting for it has no collection yet, so the two never ask for the post's one schedule.
    wakeAt(effects, Date.parse(collectAt), now);
  }
  return effects;
}

/** A published post's next look at the network: a message delayed to it, or a schedule a minute before. */
function wakeAt(effects: DeliveryEffects, due: number, now: number): void {
  if (wholeSecondsBefore(due, now) <= MAX_QUEUE_DELAY_SECONDS) {
    effects.enqueue = { delaySeconds: delayUntil(due, now) };
  } else effects.schedule = { fireAt: new Date(due - SCHEDULE_LEAD_MS) };
}
