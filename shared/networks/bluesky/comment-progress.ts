import type * as z from 'zod';
import type { PublishProgress } from '../../ports/connector.js';
import { progressSchema, strongRefSchema, writeProgress } from './progress.js';

/**
 * What earlier attempts of a first comment finished (a post's progress, progress.ts, for one item):
 * `sending` is the comment's record key, chosen before its first createRecord; `parent` the post's
 * strongRef (its CID read once with getRecord); `posted` the comment once made; `blobs`/`videos`
 * its media.
 */
const commentProgressSchema = progressSchema.extend({ parent: strongRefSchema.optional() });
export type CommentProgress = z.output<typeof commentProgressSchema>;

export function readCommentProgress(progress: PublishProgress | undefined): CommentProgress {
  const parsed = commentProgressSchema.safeParse(progress);
  return parsed.success ? parsed.data : { posted: [], blobs: {}, videos: {} };
}

export const writeCommentProgress: (progress: CommentProgress) => PublishProgress = writeProgress;
