import type { Post } from '../../domain/posts.js';
import { type ThreadsOptions, threadsOptionsSchema } from './options-schema.js';

/**
 * The post's Threads options, read again through their schema because they come back from
 * storage; an option that does not read is reported, never replaced by a default.
 */
export function readThreadsOptions(post: Post): ThreadsOptions | { invalid: true } {
  const options: unknown = (post.platformOptions as Record<string, unknown> | undefined)?.threads;
  const parsed = threadsOptionsSchema.safeParse(options ?? {});
  return parsed.success ? parsed.data : { invalid: true };
}
