import * as z from 'zod';
import type { JsonValue, PublishProgress } from '../../ports/connector.js';

/**
 * What earlier attempts finished on X, kept by the worker between attempts (PublishProgress):
 * - `posted`: the ids of the thread's items already on X, in order (one for a single post);
 * - `media`: uploads, by the media's position in the request's `media` list: the X media id, how
 *   far the upload got (`appending` with the next segment, `processing`, `ready`) and whether its
 *   alt text is set. Entries of items already posted are dropped, which keeps a 25-item thread
 *   well under the 8 KiB the worker stores.
 */
const mediaProgressSchema = z.object({
  id: z.string().regex(/^[0-9]{1,19}$/),
  stage: z.enum(['appending', 'processing', 'ready']),
  next: z.number().int().min(0).optional(),
  alt: z.literal(true).optional(),
});
export type MediaProgress = z.output<typeof mediaProgressSchema>;

const progressSchema = z.object({
  posted: z.array(z.string().regex(/^[0-9]{1,19}$/)),
  media: z.record(z.string().regex(/^[0-9]+$/), mediaProgressSchema),
});

export interface XProgress {
  posted: string[];
  media: Map<number, MediaProgress>;
}

export function emptyProgress(): XProgress {
  return { posted: [], media: new Map() };
}

/**
 * The progress the worker handed back. Only this connector writes it; anything else (absent, from
 * an older shape) starts from nothing, which is safe: before posting again the connector looks on
 * X for what an earlier attempt may have posted (publish.ts).
 */
export function readProgress(progress: PublishProgress | undefined): XProgress {
  const parsed = progressSchema.safeParse(progress);
  if (!parsed.success) return emptyProgress();
  return {
    posted: [...parsed.data.posted],
    media: new Map(Object.entries(parsed.data.media).map(([index, media]) => [Number(index), media])),
  };
}

export function writeProgress(progress: XProgress): PublishProgress {
  const media: Record<string, JsonValue> = {};
  for (const [index, entry] of [...progress.media.entries()].sort(([a], [b]) => a - b)) {
    media[String(index)] = {
      id: entry.id,
      stage: entry.stage,
      ...(entry.next !== undefined && { next: entry.next }),
      ...(entry.alt && { alt: true }),
    };
  }
  return { posted: [...progress.posted], media };
}
