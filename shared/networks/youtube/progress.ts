import * as z from 'zod';
import type { PublishProgress } from '../../ports/connector.js';

/**
 * What earlier attempts of a YouTube post finished, kept on the post between attempts (≤ 8 KiB):
 * - `uploading`: a resumable session exists at `session` and YouTube had (at least) `offset` of
 *   `total` bytes when the attempt stopped; the next asks for the received range and goes on;
 * - `processing`: the whole file is in, as video `videoId`; the next reads its processing status.
 * `media` is the post's media id, so a changed post never continues another file's upload.
 */
const YouTubeProgress = z.discriminatedUnion('state', [
  z.object({
    v: z.literal(1),
    state: z.literal('uploading'),
    media: z.string(),
    session: z.string().url(),
    total: z.number().int().nonnegative(),
    offset: z.number().int().nonnegative(),
  }),
  z.object({
    v: z.literal(1),
    state: z.literal('processing'),
    media: z.string(),
    videoId: z.string().min(1),
    /** The visibility the insert's answer gave the video (an unaudited project's: private). */
    privacyStatus: z.string().optional(),
  }),
]);
export type YouTubeProgress = z.infer<typeof YouTubeProgress>;
export type UploadingProgress = Extract<YouTubeProgress, { state: 'uploading' }>;

/** The progress an earlier attempt left, or undefined when there is none or it is not ours. */
export function readProgress(progress: PublishProgress | undefined): YouTubeProgress | undefined {
  const parsed = YouTubeProgress.safeParse(progress);
  return parsed.success ? parsed.data : undefined;
}

export function toPublishProgress(progress: YouTubeProgress): PublishProgress {
  return { ...progress };
}
