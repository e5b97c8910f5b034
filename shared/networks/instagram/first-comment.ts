import type { FirstCommentSupport } from '../definition.js';
import { INSTAGRAM_MAX_CAPTION } from './rules.js';

/**
 * Instagram's first comment as data (first-comment-and-link-previews.md §1.3): text only, and the
 * scope commenting needs beyond publishing, asked at connect unless the operator says the app is
 * not approved for it (INSTAGRAM_ASK_COMMENT_SCOPES=false).
 */
export const instagramFirstComment = {
  // Instagram states no comment length; its caption limit is the bound its app applies to comments too.
  maxLength: INSTAGRAM_MAX_CAPTION,
  mediaKinds: [],
  maxMedia: 0,
  scopes: ['instagram_business_manage_comments'],
  how: 'a comment on the new post from the same account (text only)',
} as const satisfies FirstCommentSupport;
