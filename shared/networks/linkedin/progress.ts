import * as z from 'zod';
import type { PublishProgress } from '../../ports/connector.js';

/**
 * What earlier attempts of a LinkedIn post finished, kept on the post between attempts (the port's
 * PublishProgress, ≤ 8 KiB): the author that was checked, each media item's URN once LinkedIn has
 * its bytes, and when the post itself was sent. Twenty image URNs fit with room to spare.
 */
const MediaDone = z.object({
  /** The post's media item (its media id), so a changed list is never matched to old uploads. */
  ref: z.string(),
  urn: z.string(),
  /** `ready`: usable in a post; `processing`: uploaded, LinkedIn still processing it. */
  state: z.enum(['ready', 'processing']),
});
export type MediaDone = z.infer<typeof MediaDone>;

const LinkedInProgress = z.object({
  v: z.literal(1),
  /** The author URN whose right to post was checked. */
  author: z.string().optional(),
  media: z.array(MediaDone).optional(),
  /** An article share's thumbnail, once uploaded (an image URN of the author's). */
  thumbnail: z.string().optional(),
  /** ISO 8601: when `POST /rest/posts` was sent by an attempt whose answer never came. */
  createSentAt: z.string().optional(),
});
export type LinkedInProgress = z.infer<typeof LinkedInProgress>;

/** The progress an earlier attempt left, or a fresh one when there is none or it is not ours. */
export function readProgress(progress: PublishProgress | undefined): LinkedInProgress {
  const parsed = LinkedInProgress.safeParse(progress);
  return parsed.success ? parsed.data : { v: 1 };
}

export function toPublishProgress(progress: LinkedInProgress): PublishProgress {
  return {
    v: progress.v,
    ...(progress.author !== undefined && { author: progress.author }),
    ...(progress.media !== undefined && { media: progress.media.map((item) => ({ ...item })) }),
    ...(progress.thumbnail !== undefined && { thumbnail: progress.thumbnail }),
    ...(progress.createSentAt !== undefined && { createSentAt: progress.createSentAt }),
  };
}
