import { type GraphContext, type ListedPost, recentPosts } from './graph.js';
import { THREADS_CLOCK_SKEW_MS, THREADS_LISTING_LIMIT, threadsProfileUrl } from './limits.js';

/** What a published container became: the post's id and its permalink. */
export interface FoundPost {
  platformPostId: string;
  platformPostUrl: string;
}

/** One post of ours as the account's listings would show it. */
export interface WantedPost {
  text: string;
  /** The post it replies to, when it is a reply (listed under `/replies`, not `/threads`). */
  replyToId?: string;
  /** Epoch ms: it cannot have gone out before. */
  since: number;
  handle: string;
}

export type Search =
  | { kind: 'found'; post: FoundPost }
  /** The listing reaches back past `since` and holds no such post. */
  | { kind: 'not_found' }
  /** Too many recent posts to tell. */
  | { kind: 'unknown' };

/**
 * Looks for a post among the account's recent posts or replies (threads.md §9): a container does
 * not name the post it became, so a PUBLISHED one, or an attempt whose answer was lost, is matched
 * by its text, its time and (for a reply) the post it replies to. Throws what the listing threw.
 */
export async function searchPosts(context: GraphContext, wanted: WantedPost): Promise<Search> {
  const since = (Number.isFinite(wanted.since) ? wanted.since : 0) - THREADS_CLOCK_SKEW_MS;
  const edge = wanted.replyToId ? 'replies' : 'threads';
  const listed = await recentPosts(context, edge, Math.floor(since / 1000));
  if (!listed) return { kind: 'unknown' };
  const match = listed.find((post) => matches(post, wanted, since));
  if (match) {
    return {
      kind: 'found',
      post: {
        platformPostId: match.id,
        platformPostUrl: match.permalink ?? threadsProfileUrl(wanted.handle),
      },
    };
  }
  return listed.length < THREADS_LISTING_LIMIT ? { kind: 'not_found' } : { kind: 'unknown' };
}

function matches(post: ListedPost, wanted: WantedPost, since: number): boolean {
  const at = post.timestamp ? Date.parse(post.timestamp) : Number.NaN;
  if (!(at >= since)) return false;
  if (wanted.replyToId && post.replied_to && post.replied_to.id !== wanted.replyToId) return false;
  return (post.text ?? '') === wanted.text;
}
