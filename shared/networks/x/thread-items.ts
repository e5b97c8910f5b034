import type { Post } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';

/** One post on X: the whole post for string content, one item of a thread otherwise. */
export interface XItem {
  index: number;
  text: string;
  /** Its media, each with its position in the request's `media` list (the key of its progress). */
  media: { position: number; media: DeliveryMedia }[];
}

/**
 * The posts to make, in order. The worker lists the delivered media in the order of the post's
 * references (top-level `media`, then each item's, as resolve-media.ts does), so each item's share
 * is a slice of that list; top-level media (only used with string content) belong to the first.
 */
export function xItems(post: Pick<Post, 'content' | 'media'>, media: readonly DeliveryMedia[]): XItem[] {
  const withPositions = media.map((entry, position) => ({ position, media: entry }));
  if (typeof post.content === 'string') {
    return [{ index: 0, text: post.content, media: withPositions }];
  }
  let next = 0;
  return post.content.map((item, index) => {
    const count = (item.media?.length ?? 0) + (index === 0 ? post.media.length : 0);
    const share = withPositions.slice(next, next + count);
    next += count;
    return { index, text: item.text ?? '', media: share };
  });
}

/** What each post of the thread looks like on X, from the post alone (a look-up has no media list). */
export function itemShapes(post: Pick<Post, 'content' | 'media'>): { text: string; mediaCount: number }[] {
  if (typeof post.content === 'string') return [{ text: post.content, mediaCount: post.media.length }];
  return post.content.map((item, index) => ({
    text: item.text ?? '',
    mediaCount: (item.media?.length ?? 0) + (index === 0 ? post.media.length : 0),
  }));
}
