import type { Post } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';

/** One post on Bluesky: the whole post for string content, one item of a thread otherwise. */
export interface BlueskyItem {
  index: number;
  text: string;
  /** Its media, each with its position in the request's `media` list (the key of its progress). */
  media: { position: number; media: DeliveryMedia }[];
}

/**
 * The posts to make, in order. The worker lists the delivered media in the order of the post's
 * references (top-level `media`, then each item's), so each item's share is a slice of that list;
 * top-level media (only used with string content) belong to the first.
 */
export function blueskyItems(
  post: Pick<Post, 'content' | 'media'>,
  media: readonly DeliveryMedia[],
): BlueskyItem[] {
  const withPositions = media.map((entry, position) => ({ position, media: entry }));
  if (typeof post.content === 'string') return [{ index: 0, text: post.content, media: withPositions }];
  let next = 0;
  return post.content.map((item, index) => {
    const count = (item.media?.length ?? 0) + (index === 0 ? post.media.length : 0);
    const share = withPositions.slice(next, next + count);
    next += count;
    return { index, text: item.text ?? '', media: share };
  });
}

/** The texts of the post's items, from the post alone (a look-up has no media list). */
export function itemTexts(post: Pick<Post, 'content'>): string[] {
  return typeof post.content === 'string' ? [post.content] : post.content.map((item) => item.text ?? '');
}

/** The earliest the post can have gone out: when it was due (scheduled), else when it was made. */
export function dueAtMs(post: Pick<Post, 'createdAt' | 'scheduledAt'>): number {
  const created = Date.parse(post.createdAt);
  const scheduled = post.scheduledAt ? Date.parse(post.scheduledAt) : Number.NaN;
  return Number.isNaN(scheduled) ? created : Math.max(created, scheduled);
}
