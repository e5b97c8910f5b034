import type { Post } from '../../domain/posts.js';
import { type BlueskyOptions, blueskyOptionsSchema } from './options-schema.js';

/**
 * `platformOptions.bluesky` of the post, parsed again: options that no longer parse (a value
 * dropped since the post was made) are left out rather than fail the post.
 */
export function blueskyOptionsOf(post: Pick<Post, 'platformOptions'>): BlueskyOptions {
  return (
    blueskyOptionsSchema.safeParse(
      (post.platformOptions as Readonly<Record<string, unknown>> | undefined)?.bluesky ?? {},
    ).data ?? {}
  );
}
