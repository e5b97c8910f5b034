import { contentItems, type Post, type UserTag } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';
import { mediaRefsWithPaths } from '../../services/posts/post-checks.js';
import type { InstagramOptions } from './options-schema.js';

export type InstagramPostType = 'image' | 'carousel' | 'reel' | 'story';

/** The caption: the post's text (a carousel's first item's). Stories take none. */
export function captionOf(post: Post): string {
  return contentItems(post)[0]?.text ?? '';
}

/** The user tags of each delivered media item, by position (the worker delivers in this order). */
export function userTagsOf(post: Post): (UserTag[] | undefined)[] {
  return mediaRefsWithPaths(post).map(({ ref }) => ref.userTags);
}

/**
 * `user_tags` as Instagram takes it (instagram.md §2): a JSON array; images carry x/y (0.0–1.0 from
 * the top-left); reels and videos take the usernames only.
 */
function userTagsParam(tags: UserTag[] | undefined, kind: DeliveryMedia['kind']): Record<string, string> {
  if (!tags || tags.length === 0) return {};
  const value =
    kind === 'image'
      ? tags.map((tag) => ({ username: tag.username, x: tag.x, y: tag.y }))
      : tags.map((tag) => ({ username: tag.username }));
  return { user_tags: JSON.stringify(value) };
}

function sharedOptions(options: InstagramOptions): Record<string, string> {
  return {
    ...(options.locationId && { location_id: options.locationId }),
    ...(options.collaborators && { collaborators: JSON.stringify(options.collaborators) }),
  };
}

/** `trial_params` (network-extras.md §4a): manual graduation in the app, or Instagram's on performance. */
function trialParams(trial: NonNullable<InstagramOptions['trialReel']>): { graduation_strategy: string } {
  return { graduation_strategy: trial.graduation === 'auto' ? 'SS_PERFORMANCE' : 'MANUAL' };
}

/** The single container of an image post, a reel or a story. */
export function singleParams(input: {
  postType: Exclude<InstagramPostType, 'carousel'>;
  media: DeliveryMedia;
  url: string;
  caption: string;
  tags: UserTag[] | undefined;
  options: InstagramOptions;
  /** A reel's cover image (optionMedia.coverImage), as a URL Instagram fetches. */
  coverUrl?: string;
}): Record<string, string> {
  const { media, url, caption, options } = input;
  const tags = userTagsParam(input.tags, media.kind);
  if (input.postType === 'story') {
    return {
      media_type: 'STORIES',
      ...(media.kind === 'video' ? { video_url: url } : { image_url: url }),
      ...tags,
    };
  }
  if (input.postType === 'reel') {
    return {
      media_type: 'REELS',
      video_url: url,
      ...(caption && { caption }),
      ...(options.shareToFeed !== undefined && { share_to_feed: String(options.shareToFeed) }),
      ...(options.thumbOffsetMs !== undefined && { thumb_offset: String(options.thumbOffsetMs) }),
      ...(input.coverUrl && { cover_url: input.coverUrl }),
      ...(options.trialReel && { trial_params: JSON.stringify(trialParams(options.trialReel)) }),
      ...sharedOptions(options),
      ...tags,
    };
  }
  return {
    image_url: url,
    ...(caption && { caption }),
    ...(media.alt && { alt_text: media.alt }),
    ...sharedOptions(options),
    ...tags,
  };
}

/** One carousel item's container: no caption (the parent has it). */
export function carouselItemParams(input: {
  media: DeliveryMedia;
  url: string;
  tags: UserTag[] | undefined;
}): Record<string, string> {
  const { media, url } = input;
  return {
    is_carousel_item: 'true',
    ...(media.kind === 'video' ? { media_type: 'VIDEO', video_url: url } : { image_url: url }),
    ...(media.kind === 'image' && media.alt && { alt_text: media.alt }),
    ...userTagsParam(input.tags, media.kind),
  };
}

export function carouselParams(input: {
  children: readonly string[];
  caption: string;
  options: InstagramOptions;
}): Record<string, string> {
  return {
    media_type: 'CAROUSEL',
    children: input.children.join(','),
    ...(input.caption && { caption: input.caption }),
    ...sharedOptions(input.options),
  };
}
