import type { Post } from '../../domain/posts.js';
import { type InstagramOptions, instagramOptionsSchema } from './options-schema.js';

/**
 * The post's Instagram options, read again through their schema because they come back from
 * storage; an option that does not read is reported, never replaced by a default.
 */
export function readInstagramOptions(post: Post): InstagramOptions | { invalid: true } {
  const parsed = instagramOptionsSchema.safeParse(post.platformOptions?.instagram ?? {});
  return parsed.success ? parsed.data : { invalid: true };
}
