import * as z from 'zod';
import type { PublishProgress } from '../../ports/connector.js';

/**
 * What earlier attempts of a Facebook post finished (the port's PublishProgress, ≤ 8 KiB): a
 * multi-photo post's unpublished photos, a video's or reel's id and how far its upload went, and
 * when the call that makes the post was sent by an attempt that got no answer (the look-up lists
 * the Page's posts from then on).
 */
const Photo = z.object({
  /** The post's media item (media id, or URL), so a changed list is never matched to old photos. */
  ref: z.string(),
  id: z.string(),
});
export type UnpublishedPhoto = z.infer<typeof Photo>;

const FacebookProgress = z.object({
  v: z.literal(1),
  photos: z.array(Photo).optional(),
  /** A feed video's or reel's id, once Meta named it. */
  videoId: z.string().optional(),
  /** Reels: the bytes are at Meta (the upload step answered). */
  uploaded: z.boolean().optional(),
  /** Reels: the finish step (publish) answered. */
  finished: z.boolean().optional(),
  /** ISO 8601: when the call that makes the post (feed, photo, video, reel finish) was sent unanswered. */
  attemptAt: z.string().optional(),
});
export type FacebookProgress = z.infer<typeof FacebookProgress>;

export function readProgress(progress: PublishProgress | undefined): FacebookProgress {
  const parsed = FacebookProgress.safeParse(progress);
  return parsed.success ? parsed.data : { v: 1 };
}

export function toPublishProgress(progress: FacebookProgress): PublishProgress {
  const out: { [key: string]: PublishProgress[string] } = { v: progress.v };
  if (progress.photos) out.photos = progress.photos.map((photo) => ({ ...photo }));
  if (progress.videoId !== undefined) out.videoId = progress.videoId;
  if (progress.uploaded !== undefined) out.uploaded = progress.uploaded;
  if (progress.finished !== undefined) out.finished = progress.finished;
  if (progress.attemptAt !== undefined) out.attemptAt = progress.attemptAt;
  return out;
}
