import * as z from 'zod';
import type { JsonValue, PublishProgress } from '../../ports/connector.js';

/** A blob as the PDS answers it (lexicon `com.atproto.repo.uploadBlob`), kept to embed it. */
export const blobSchema = z.object({
  $type: z.literal('blob'),
  ref: z.object({ $link: z.string().min(1).max(128) }),
  mimeType: z.string().min(1).max(100),
  size: z.number().int().min(0),
});
export type Blob = z.output<typeof blobSchema>;

/** A record as createRecord and getRecord name it: what a reply's root and parent point at. */
export const strongRefSchema = z.object({
  uri: z.string().startsWith('at://').max(300),
  cid: z.string().min(1).max(128),
});
export type StrongRef = z.output<typeof strongRefSchema>;

/**
 * What earlier attempts finished on Bluesky, kept by the worker between attempts:
 * - `posted`: the thread's items already on Bluesky, in order (one for a single post);
 * - `sending`: the record key of the item whose createRecord was sent last (also derived from the
 *   post, tid.ts: it is kept so the logs and a look-up can name it);
 * - `blobs`: uploaded images with when (epoch ms), by the media's position in the request's `media`
 *   list: a blob no record references is deleted by the PDS within minutes, so an old one is
 *   uploaded again rather than referenced (BLUESKY_BLOB_REUSE_MS);
 * - `videos`: a video job at the video service, or its finished blob, by position.
 * Entries of items already posted are dropped, which keeps a 25-item thread well under 8 KiB.
 */
export const progressSchema = z.object({
  posted: z.array(strongRefSchema),
  sending: z.string().optional(),
  blobs: z.record(z.string(), z.object({ blob: blobSchema, at: z.number().int().min(0) })),
  videos: z.record(z.string(), z.object({ jobId: z.string().min(1).max(200) })),
});
export type BlueskyProgress = z.output<typeof progressSchema>;

export function readProgress(progress: PublishProgress | undefined): BlueskyProgress {
  const parsed = progressSchema.safeParse(progress);
  return parsed.success ? parsed.data : { posted: [], blobs: {}, videos: {} };
}

export function writeProgress(progress: BlueskyProgress): PublishProgress {
  return JSON.parse(JSON.stringify(progress)) as { [key: string]: JsonValue };
}
