import * as z from 'zod';
import type { PublishProgress } from '../../ports/connector.js';

/**
 * What earlier attempts of an Instagram post finished (the port's PublishProgress, ≤ 8 KiB): the
 * carousel's item containers, the container to publish and when it was made, and when
 * `media_publish` was sent by an attempt whose answer never came. Ten item ids fit easily.
 */
const Child = z.object({
  /** The post's media item (media id, or URL), so a changed list is never matched to old containers. */
  ref: z.string(),
  id: z.string(),
});
export type ChildContainer = z.infer<typeof Child>;

const InstagramProgress = z.object({
  v: z.literal(1),
  children: z.array(Child).optional(),
  /** The container that `media_publish` takes: the single media's, or the carousel's parent. */
  container: z.string().optional(),
  /** The media refs the container was made from, joined, to notice a list that changed. */
  containerOf: z.string().optional(),
  /** ISO 8601: when the container was made (Instagram expires it after 24 hours). */
  containerAt: z.string().optional(),
  /** ISO 8601: when `media_publish` was sent by an attempt that got no answer. */
  publishSentAt: z.string().optional(),
});
export type InstagramProgress = z.infer<typeof InstagramProgress>;

export function readProgress(progress: PublishProgress | undefined): InstagramProgress {
  const parsed = InstagramProgress.safeParse(progress);
  return parsed.success ? parsed.data : { v: 1 };
}

export function toPublishProgress(progress: InstagramProgress): PublishProgress {
  const out: { [key: string]: PublishProgress[string] } = { v: progress.v };
  if (progress.children) out.children = progress.children.map((child) => ({ ...child }));
  if (progress.container !== undefined) out.container = progress.container;
  if (progress.containerOf !== undefined) out.containerOf = progress.containerOf;
  if (progress.containerAt !== undefined) out.containerAt = progress.containerAt;
  if (progress.publishSentAt !== undefined) out.publishSentAt = progress.publishSentAt;
  return out;
}
