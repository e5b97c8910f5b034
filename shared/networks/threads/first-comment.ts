import type { FirstCommentSupport, LinkPreviewSupport } from '../definition.js';
import { THREADS_CAROUSEL_MAX_ITEMS, THREADS_MAX_TEXT } from './limits.js';

/**
 * Threads' first comment as data (first-comment-and-link-previews.md §1.6): a reply from the same
 * account, with a reply's media (an image or video, or up to 20 as a carousel). The scopes a
 * connect asks already cover it (threads_manage_replies): none of its own.
 */
export const threadsFirstComment = {
  // Threads counts an emoji as its UTF-8 bytes (text-length.ts): a comment near 500 may still be refused.
  maxLength: THREADS_MAX_TEXT,
  mediaKinds: ['image', 'video'],
  maxMedia: THREADS_CAROUSEL_MAX_ITEMS,
  how: 'a reply to the new post from the same account',
} as const satisfies FirstCommentSupport;

/**
 * A post's `link` on Threads (first-comment-and-link-previews.md §2.4): `link_attachment` on a text
 * post; Threads reads the page itself, so only the URL is used.
 */
export const threadsLinkPreview = {
  card: 'network',
  postTypes: ['text'],
  withMedia: false,
} as const satisfies LinkPreviewSupport;
