import type { FirstCommentSupport, LinkPreviewSupport } from '../definition.js';

/**
 * Facebook's first comment as data (first-comment-and-link-previews.md §1.4): a comment by the
 * Page on its new post, with at most one image (sent as `attachment_url`), needing
 * `pages_manage_engagement`, asked at connect unless the operator says the app is not approved
 * for it (FACEBOOK_ASK_COMMENT_SCOPES=false).
 */
export const facebookFirstComment = {
  // Meta's reference states no length; 8,000 characters is what its comment box takes.
  maxLength: 8000,
  mediaKinds: ['image'],
  maxMedia: 1,
  scopes: ['pages_manage_engagement'],
  how: 'a comment on the new post by the Page (with at most one image)',
} as const satisfies FirstCommentSupport;

/**
 * A post's `link` on Facebook (first-comment-and-link-previews.md §2.5): `link` on a feed post;
 * Facebook reads the page's Open Graph tags itself, so only the URL is used.
 */
export const facebookLinkPreview = {
  card: 'network',
  postTypes: ['text'],
  withMedia: false,
} as const satisfies LinkPreviewSupport;
