import { contentItems, type Post } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';

/** One Threads post to make: the whole post, or one post of a thread (published as a reply to the one before). */
export interface ThreadsItem {
  index: number;
  text: string;
  /** Its media, each with a reference that names it across attempts (its stored id, or URL). */
  media: { ref: string; media: DeliveryMedia }[];
}

/** What names a media item across attempts: its stored id, else its URL, else its position. */
export function refOf(media: DeliveryMedia, position: number): string {
  return media.stored?.mediaId ?? media.url ?? `#${position}`;
}

/**
 * The posts to make, in order. The worker delivers the media in the order of the post's references
 * (top-level `media`, then each item's), so each thread item's share is a slice of that list. A
 * carousel is one post whatever its shape: its caption is the first item's text.
 */
export function threadsItems(
  post: Pick<Post, 'postType' | 'content' | 'media'>,
  media: readonly DeliveryMedia[],
): ThreadsItem[] {
  const withRefs = media.map((entry, position) => ({ ref: refOf(entry, position), media: entry }));
  const parts = contentItems(post);
  if (post.postType !== 'thread' || typeof post.content === 'string') {
    return [{ index: 0, text: parts[0]?.text ?? '', media: withRefs }];
  }
  let next = 0;
  return post.content.map((item, index) => {
    const count = (item.media?.length ?? 0) + (index === 0 ? post.media.length : 0);
    const share = withRefs.slice(next, next + count);
    next += count;
    return { index, text: item.text ?? '', media: share };
  });
}

/** The texts of the posts to make, from the post alone (a look-up has no media list). */
export function itemTexts(post: Pick<Post, 'postType' | 'content' | 'media'>): string[] {
  const parts = contentItems(post);
  if (post.postType !== 'thread' || typeof post.content === 'string') return [parts[0]?.text ?? ''];
  return post.content.map((item) => item.text ?? '');
}

/** What names an item across attempts: its place and its media, so a changed post never reuses old containers. */
export function itemKey(item: ThreadsItem): string {
  return [String(item.index), ...item.media.map((entry) => entry.ref)].join(' ');
}

/** The item's place in the post, from its key. */
export function indexOfKey(key: string): number {
  return Number(key.split(' ')[0]);
}

/** The earliest the post can have gone out: when it was due (scheduled), else when it was made. */
export function dueAt(post: Pick<Post, 'createdAt' | 'scheduledAt'>): number {
  const created = Date.parse(post.createdAt);
  const scheduled = post.scheduledAt ? Date.parse(post.scheduledAt) : Number.NaN;
  return Number.isNaN(scheduled) ? created : Math.max(created, scheduled);
}
