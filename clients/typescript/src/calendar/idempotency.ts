import { createHash } from 'node:crypto';
import { ENDED } from './diff.js';
import type { PlanItem, ServiceState } from './model.js';
import { externalIdOf } from './post-fields.js';

/**
 * The Idempotency-Key of the create of one calendar entry: the same for a re-run of an interrupted
 * apply (the service answers the first create again), new once the entry's post was cancelled or
 * failed (a re-added entry must not get the old, cancelled post back). `cal-` + 64 hex digits.
 */
export function idempotencyKeyFor(workspaceId: string, externalId: string, generation: number): string {
  // Length-prefixed so no two different triples hash the same text.
  const text = [workspaceId, externalId, String(generation)]
    .map((part) => `${part.length}:${part}`)
    .join('|');
  return `cal-${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** How many posts with this externalId ended cancelled or failed: the generation of its next create. */
export function generationOf(state: ServiceState, externalId: string): number {
  const seen = new Set<string>();
  let count = 0;
  for (const post of [...state.managed, ...state.bound]) {
    if (seen.has(post.id)) continue;
    seen.add(post.id);
    if (externalIdOf(post) === externalId && ENDED.has(post.status)) count++;
  }
  return count;
}

/**
 * The generation of a planned create. A replace (the plan cancels the entry's post, then creates
 * it anew) creates after its cancels: the live post's own create used the current generation, and
 * replaying that key would answer with the post being cancelled. Counting the planned cancels gives
 * the key a re-run computes from the state once they are done.
 */
export function generationOfCreate(state: ServiceState, items: PlanItem[], externalId: string): number {
  const plannedCancels = items.filter(
    (item) => item.kind === 'cancel' && item.post !== undefined && externalIdOf(item.post) === externalId,
  ).length;
  return generationOf(state, externalId) + plannedCancels;
}
