/**
 * A post's shape without its network: what the networks' own rules and options (declared in
 * `shared/networks/<net>/`) read of a post. It imports nothing that derives from the network
 * definitions, so a definition may import it: the definitions hold the rules, and the domain's
 * `PostDraft` and `Post` (posts.ts), which derive from the definitions, are this shape with the
 * platform and the options made precise.
 */

/** docs/api-decisions.md#platforms-and-post-types. */
export const POST_TYPES = [
  'text',
  'image',
  'video',
  'thread',
  'carousel',
  'document',
  'reel',
  'story',
  'short',
] as const;
export type PostType = (typeof POST_TYPES)[number];

export const MEDIA_KINDS = ['image', 'video', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export interface UserTag {
  username: string;
  /** 0.0–1.0 from the left edge. */
  x: number;
  /** 0.0–1.0 from the top edge. */
  y: number;
}

/** A media reference: pre-uploaded (`id`) or a public URL fetched at publish time (`url` + `type`). */
export interface MediaRef {
  id?: string;
  url?: string;
  type?: MediaKind;
  alt?: string;
  userTags?: UserTag[];
}

/**
 * A comment the same account posts on the new post right after it is published (docs/first-comment.md):
 * a second network call with its own outcome, never a reason to post the post again.
 */
export interface FirstCommentShape {
  text: string;
  /** The network's allowed media for a comment (its definition's `firstComment.mediaKinds`). */
  media?: MediaRef[];
}

/**
 * A link shown as a card (docs/networks.md "Link previews"): where we build the card (LinkedIn's
 * article, Bluesky's external embed) `title`, `description` and `thumbnail` win over the page's own
 * Open Graph tags; where the network builds it from the page (X, Threads, Facebook) only `url` is used.
 */
export interface LinkShape {
  url: string;
  title?: string;
  description?: string;
  /** An image (pre-uploaded `id`, or a `url` fetched at publish time). */
  thumbnail?: MediaRef;
}

export interface ContentItem {
  text?: string;
  media?: MediaRef[];
}

/** The kind of a referenced media item: from `type` for URL media, from the stored record for `id` media. */
export type MediaKindLookup = (ref: MediaRef) => MediaKind | undefined;

/**
 * The post as it would be published, for any platform `P` and options `O` (the domain's PostDraft
 * is `PostShape<Platform, PlatformOptions>`).
 */
export interface PostShape<P extends string = string, O = unknown> {
  platform: P;
  postType: PostType;
  /** A string is the post text; an array holds one item per part of a thread or carousel. */
  content: string | ContentItem[];
  /** Used with string content. */
  media: MediaRef[];
  /** ISO 8601 UTC; absent for "publish now" and for drafts without a time. */
  scheduledAt?: string;
  /** The network's own settings (platform-options.ts); absent when the caller gave none. */
  platformOptions?: O;
  /** Posted as a comment on the new post once it is published; absent: none. */
  firstComment?: FirstCommentShape;
  /** A link card; absent: none (a URL in the text stays text, or the network's own preview of it). */
  link?: LinkShape;
}

/** Content as a list of parts, whichever shape the caller used. */
export function contentItems(draft: Pick<PostShape, 'content' | 'media'>): ContentItem[] {
  return typeof draft.content === 'string' ? [{ text: draft.content, media: draft.media }] : draft.content;
}
