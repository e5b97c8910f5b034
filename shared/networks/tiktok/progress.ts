import * as z from 'zod';
import type { PublishProgress } from '../../ports/connector.js';

/**
 * What earlier attempts of a TikTok post finished, kept on the post between attempts (≤ 8 KiB):
 * the publish id once TikTok accepted the init (from then on no attempt inits again: that could
 * post twice), the upload's plan and the next chunk to send, and whether the last request's answer
 * was lost (then TikTok is asked where it stands before anything is sent).
 */
const Upload = z.object({
  url: z.string().min(1),
  size: z.number().int().positive(),
  chunkSize: z.number().int().positive(),
  totalChunks: z.number().int().positive(),
  /** Index of the next chunk to send; totalChunks once all were sent. */
  next: z.number().int().nonnegative(),
});
export type UploadProgress = z.infer<typeof Upload>;

const TikTokProgress = z.object({
  v: z.literal(1),
  /** The post's media, by id, so a changed list is never matched to an old publish. */
  ref: z.string(),
  kind: z.enum(['video', 'photo']),
  /** The creator's @username (creator_info), for the post's URL. */
  handle: z.string().optional(),
  publishId: z.string().optional(),
  upload: Upload.optional(),
  /** The answer to the last request sent was lost: ask TikTok before sending more. */
  uncertain: z.boolean().optional(),
  /** ISO 8601: when an init left whose answer never came (no publish id is known). */
  initSentAt: z.string().optional(),
});
export type TikTokProgress = z.infer<typeof TikTokProgress>;

export function readProgress(progress: PublishProgress | undefined): TikTokProgress | undefined {
  const parsed = TikTokProgress.safeParse(progress);
  return parsed.success ? parsed.data : undefined;
}

export function toPublishProgress(progress: TikTokProgress): PublishProgress {
  const { upload, ...rest } = progress;
  const plain: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) plain[key] = value;
  return upload ? { ...plain, upload: { ...upload } } : plain;
}
