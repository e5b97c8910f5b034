import * as z from 'zod';
import type { JsonValue, PublishProgress } from '../../ports/connector.js';

/**
 * What earlier attempts of a Threads post finished (the port's PublishProgress, ≤ 8 KiB):
 * - `posted`: the ids of the posts already on Threads, in order (a thread's first items);
 * - `item`: the post being made: its carousel items' containers, its container and when it was
 *   made, and when `threads_publish` was sent by an attempt whose answer never came.
 * Twenty-five ids and twenty children fit easily.
 */
const Child = z.object({ ref: z.string(), id: z.string() });
export type ChildContainer = z.infer<typeof Child>;

const ItemState = z.object({
  /** itemKey(): the item's place and media, so a changed post never reuses old containers. */
  of: z.string(),
  children: z.array(Child).optional(),
  container: z.string().optional(),
  /** ISO 8601: when the container was made (Threads expires it after 24 hours). */
  containerAt: z.string().optional(),
  /** ISO 8601: when `threads_publish` was sent by an attempt that got no answer. */
  publishSentAt: z.string().optional(),
});
export type ItemState = z.infer<typeof ItemState>;

const ThreadsProgress = z.object({
  v: z.literal(1),
  posted: z.array(z.string()),
  item: ItemState.optional(),
});
export type ThreadsProgress = z.infer<typeof ThreadsProgress>;

export function readProgress(progress: PublishProgress | undefined): ThreadsProgress {
  const parsed = ThreadsProgress.safeParse(progress);
  return parsed.success ? parsed.data : { v: 1, posted: [] };
}

export function toPublishProgress(progress: ThreadsProgress): PublishProgress {
  const out: { [key: string]: JsonValue } = { v: progress.v, posted: [...progress.posted] };
  const item = progress.item;
  if (item) {
    const state: { [key: string]: JsonValue } = { of: item.of };
    if (item.children) state.children = item.children.map((child) => ({ ref: child.ref, id: child.id }));
    if (item.container !== undefined) state.container = item.container;
    if (item.containerAt !== undefined) state.containerAt = item.containerAt;
    if (item.publishSentAt !== undefined) state.publishSentAt = item.publishSentAt;
    out.item = state;
  }
  return out;
}
