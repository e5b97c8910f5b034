import type { Post } from '../../domain/posts.js';
import { type TwitterReplySettings, twitterOptionsSchema } from './options-schema.js';

/**
 * `platformOptions.twitter.replySettings` of the post, as X's `reply_settings`. Parsed again: the
 * post was validated when it was created, and options that no longer parse (a value dropped since)
 * fall back to X's default (everyone may reply) rather than fail the post.
 */
export function replySettingsOf(post: Pick<Post, 'platformOptions'>): TwitterReplySettings | undefined {
  return twitterOptionsSchema.safeParse(post.platformOptions?.twitter ?? {}).data?.replySettings;
}
