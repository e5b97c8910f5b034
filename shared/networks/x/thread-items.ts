import type { Post } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';
import { textWithLink } from './link-text.js';
import type { ItemShape } from './look-up.js';
import { type FirstTweetExtras, firstTweetExtras } from './options.js';

/** One post on X: the whole post for string content, one item of a thread otherwise. */
export interface XItem extends ItemShape {
  index: number;
  /** Its media, each with its position in the request's `media` list (the key of its progress). */
  media: { position: number; media: DeliveryMedia }[];
  /** The first tweet's poll, sent as X's `poll`. */
  poll?: FirstTweetExtras['poll'];
}

type PostParts = Pick<Post, 'content' | 'media' | 'platformOptions' | 'link'>;

/**
 * The posts to make, in order. The worker lists the delivered media in the order of the post's
 * references (top-level `media`, then each item's, as resolve-media.ts does), so each item's share
 * is a slice of that list; top-level media (only used with string content) belong to the first.
 * The first carries the post's link (in its text), quote, Community and poll.
 */
export function xItems(post: PostParts, media: readonly DeliveryMedia[]): XItem[] {
  const withPositions = media.map((entry, position) => ({ position, media: entry }));
  let next = 0;
  return itemShapes(post).map((shape, index) => {
    const share = withPositions.slice(next, next + shape.mediaCount);
    next += shape.mediaCount;
    const poll = index === 0 ? firstTweetExtras(post).poll : undefined;
    return { ...shape, index, media: share, ...(poll && { poll }) };
  });
}

/** What each post of the thread looks like on X, from the post alone (a look-up has no media list). */
export function itemShapes(post: PostParts): ItemShape[] {
  const items =
    typeof post.content === 'string'
      ? [{ text: post.content, mediaCount: post.media.length }]
      : post.content.map((item, index) => ({
          text: item.text ?? '',
          mediaCount: (item.media?.length ?? 0) + (index === 0 ? post.media.length : 0),
        }));
  const { quoteOf, communityId, poll } = firstTweetExtras(post);
  return items.map((item, index) =>
    index === 0
      ? {
          ...item,
          text: textWithLink(item.text, post.link),
          ...(quoteOf && { quoteOf }),
          ...(communityId && { communityId }),
          ...(poll && { hasPoll: true }),
        }
      : item,
  );
}

/** What the post's first tweet replies to: a post the user named (`replyTo`), else nothing. */
export function firstParentOf(post: Pick<Post, 'platformOptions'>): string | undefined {
  return firstTweetExtras(post).replyTo;
}
