import type { Post } from '../../domain/posts.js';
import { type TikTokOptions, tiktokOptionsSchema } from './options-schema.js';

/** A post TikTok publishes (Direct Post): its privacy level is required. */
export type TikTokDirectOptions = TikTokOptions & {
  mode?: 'direct';
  privacyLevel: NonNullable<TikTokOptions['privacyLevel']>;
};
/** A draft for the creator's inbox: TikTok takes none of the post settings with it. */
export type TikTokInboxOptions = TikTokOptions & { mode: 'inbox' };
export type TikTokPostOptions = TikTokDirectOptions | TikTokInboxOptions;

export const isInbox = (options: TikTokPostOptions): options is TikTokInboxOptions =>
  options.mode === 'inbox';

/**
 * The post's TikTok options, read through the create path's schema again (they come back from
 * storage). A direct post without a privacy level (one stored before the rule, or a draft path that
 * skipped it) is reported, never given a default: TikTok's rules leave that choice to the creator.
 */
export function readTikTokOptions(post: Post): TikTokPostOptions | 'invalid' | 'no_privacy_level' {
  const parsed = tiktokOptionsSchema.safeParse(post.platformOptions?.tiktok ?? {});
  if (!parsed.success) return 'invalid';
  const options = parsed.data;
  if (options.mode === 'inbox') return { ...options, mode: 'inbox' };
  const { privacyLevel } = options;
  if (!privacyLevel) return 'no_privacy_level';
  return { ...options, mode: 'direct', privacyLevel };
}
