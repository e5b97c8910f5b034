import type { SavedPlanItem } from '../calendar/saved-plan.js';
import type { CalendarService } from './calendar-service.js';
import { makeProgress, type ProgressStream } from './progress.js';

/** How far an apply got: a re-run of the same plan completes it (creates replay their keys). */
export interface ApplyOutcome {
  done: number;
  total: number;
  /** The change that failed and why; the changes after it were not made. */
  failure?: { item: SavedPlanItem; error: unknown };
}

/**
 * Makes the planned changes in the plan's order (a replace's cancel before its create), one API
 * call each; every create carries the Idempotency-Key derived from its entry, so a re-run after an
 * interruption answers the first create again instead of posting twice. Stops at the first failure.
 */
export async function applyChanges(
  service: CalendarService,
  items: SavedPlanItem[],
  progressStream: ProgressStream,
): Promise<ApplyOutcome> {
  const progress = makeProgress(items.length, progressStream);
  let done = 0;
  for (const item of items) {
    try {
      progress.step(await applyOne(service, item));
      done++;
    } catch (error) {
      progress.interrupt();
      return { done, total: items.length, failure: { item, error } };
    }
  }
  return { done, total: items.length };
}

async function applyOne(service: CalendarService, item: SavedPlanItem): Promise<string> {
  switch (item.kind) {
    case 'create': {
      if (!item.body || !item.idempotencyKey)
        throw new Error(`the plan's create of ${item.externalId} has no body`);
      const postId = await service.create(item.body, item.idempotencyKey);
      return `created ${item.externalId} (${postId})`;
    }
    case 'edit':
    case 'reschedule': {
      if (!item.postId || !item.patch)
        throw new Error(`the plan's ${item.kind} of ${item.externalId} names no post`);
      await service.update(item.postId, item.patch);
      return `${item.kind === 'edit' ? 'edited' : 'rescheduled'} ${item.externalId} (${item.postId})`;
    }
    case 'cancel': {
      if (!item.postId) throw new Error(`the plan's cancel of ${item.externalId} names no post`);
      await service.cancel(item.postId);
      return `cancelled ${item.externalId} (${item.postId})`;
    }
  }
}
