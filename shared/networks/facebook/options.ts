import type { Post } from '../../domain/posts.js';
import { type FacebookOptions, facebookOptionsSchema } from './options-schema.js';

/**
 * The post's Facebook options, read again through their schema because they come back from
 * storage; an option that does not read is reported, never replaced by a default.
 */
export function readFacebookOptions(post: Post): FacebookOptions | { invalid: true } {
  const record = post.platformOptions as Readonly<Record<string, unknown>> | undefined;
  const parsed = facebookOptionsSchema.safeParse(record?.facebook ?? {});
  return parsed.success ? parsed.data : { invalid: true };
}
