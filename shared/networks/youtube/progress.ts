import * as z from 'zod';
import type { PublishProgress } from '../../ports/connector.js';

/**
 * What earlier attempts of a YouTube post finished, kept on the post between attempts (≤ 8 KiB):
 * - `uploading`: a resumable session exists at `session` and YouTube had (at least) `offset` of
 *   `total` bytes when the attempt stopped; the next asks for the received range and goes on;
 * - `processing`: the whole file is in, as video `videoId`; the next reads its processing status.
 * `media` is the post's media id, so a changed post never continues another file's upload.
 * `steps`: once processed, where the steps after the upload stand (after-publish.ts).
 */
const StepState = z.discriminatedUnion('s', [
  z.object({ s: z.literal('done') }),
  /** Given up, with our reason (a warning on the published post says it). */
  z.object({ s: z.literal('failed'), why: z.string() }),
  /** YouTube failed for now (a server error, throttling, no connection): tried `tries` times. */
  z.object({ s: z.literal('retry'), tries: z.number().int().nonnegative() }),
  /** A playlist or captions insert was sent and not answered: looked up before any other insert. */
  z.object({ s: z.literal('unknown'), tries: z.number().int().nonnegative() }),
]);
export type StepState = z.infer<typeof StepState>;
const Steps = z.object({
  thumbnail: StepState.optional(),
  playlist: StepState.optional(),
  captions: StepState.optional(),
});
export type AfterSteps = z.infer<typeof Steps>;

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
    steps: Steps.optional(),
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
