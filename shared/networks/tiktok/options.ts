import type { Post } from '../../domain/posts.js';
import { type TikTokOptions, tiktokOptionsSchema } from './options-schema.js';

export type TikTokPostOptions = TikTokOptions & { privacyLevel: NonNullable<TikTokOptions['privacyLevel']> };

/**
 * The post's TikTok options, read through the create path's schema again (they come back from
 * storage). A post without a privacy level (one stored before the rule, or a draft path that
 * skipped it) is reported, never given a default: TikTok's rules leave that choice to the creator.
 */
export function readTikTokOptions(post: Post): TikTokPostOptions | 'invalid' | 'no_privacy_level' {
  const parsed = tiktokOptionsSchema.safeParse(post.platformOptions?.tiktok ?? {});
  if (!parsed.success) return 'invalid';
  const { privacyLevel } = parsed.data;
  if (!privacyLevel) return 'no_privacy_level';
  return { ...parsed.data, privacyLevel };
}
