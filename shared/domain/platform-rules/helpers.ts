import {
  type ContentItem,
  contentItems,
  type MediaKindLookup,
  type MediaRef,
  type PostShape,
  type PostType,
} from '../post-shape.js';
import type { RuleViolation } from '../rule-violation.js';

// The kit the networks' rules (shared/networks/<net>/rules.ts) are written with. It reads a post's
// shape (post-shape.ts), never the domain's posts.ts: the network definitions hold the rules, and
// posts.ts derives from the definitions.

/**
 * The stable `code` values of platform-rule violations. Clients branch on them, so they only ever grow.
 */
export const RULE_CODES = [
  'POST_TYPE_NOT_ALLOWED',
  'MEDIA_MISPLACED',
  'DOCUMENT_NOT_ALLOWED',
  'CONTENT_SHAPE',
  'TOO_FEW_ITEMS',
  'TOO_MANY_ITEMS',
  'TOO_FEW_MEDIA',
  'TOO_MANY_MEDIA',
  'MEDIA_KIND_NOT_ALLOWED',
  'MEDIA_REQUIRED',
  'MEDIA_NOT_ALLOWED',
  'TEXT_REQUIRED',
  'TEXT_TOO_LONG',
  'TOO_MANY_HASHTAGS',
  'TOO_MANY_MENTIONS',
  'INVALID_CHARACTERS',
  'VIDEO_TOO_LONG',
  'VIDEO_TOO_SHORT',
  'FIRST_COMMENT_NOT_SUPPORTED',
  'FIRST_COMMENT_TOO_LONG',
  'LINK_NOT_SUPPORTED',
  'LINK_WITH_MEDIA',
  'LINK_OVERRIDE_NOT_SUPPORTED',
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

/**
 * One part of a post as it will be published (the whole post for string content, one item for
 * array content), with the field paths a caller must fix when the part breaks a rule.
 */
export interface Part {
  text: string;
  media: readonly MediaRef[];
  /** `content` for string content, `content[i].text` for an item. */
  textField: string;
  /** `media` for string content, `content[i].media` for an item; a reference adds `[j]`. */
  mediaField: string;
}

/**
 * What every platform's checker gets; `typeAllowed` false means "text checks only". `O` is the type
 * of the network's own options (`platformOptions.<platform>`), which its definition pairs with it.
 */
export interface RuleInput<O = unknown> {
  draft: PostShape;
  /** The post's options for its own network, as that network's schema read them; absent: none. */
  options: O | undefined;
  parts: readonly Part[];
  /**
   * The kind of a reference. Outside the networks that take documents, documents come back as
   * undefined: they were already reported as DOCUMENT_NOT_ALLOWED, and a second violation for the
   * same reference would be noise.
   */
  kindOf: MediaKindLookup;
  typeAllowed: boolean;
}

export type PlatformCheck<O = unknown> = (input: RuleInput<O>) => RuleViolation[];

/** The parts of a draft, built on contentItems() so string and array content are read one way. */
export function partsOf(draft: PostShape): Part[] {
  const stringContent = typeof draft.content === 'string';
  return contentItems(draft).map((item: ContentItem, i) => ({
    text: item.text ?? '',
    media: item.media ?? [],
    textField: stringContent ? 'content' : `content[${i}].text`,
    mediaField: stringContent ? 'media' : `content[${i}].media`,
  }));
}

export function mediaPath(part: Part, index: number): string {
  return `${part.mediaField}[${index}]`;
}

/** Builds a violation; `limit` is left out (not set to undefined) when no number applies. */
export function violation(field: string, code: RuleCode, message: string, limit?: number): RuleViolation {
  return limit === undefined ? { field, code, message } : { field, code, message, limit };
}

/** "Characters" as people count them in most network docs: Unicode code points, so an emoji is 1, not 2. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** TikTok counts UTF-16 code units (what JavaScript's `length` is). */
export function utf16Length(text: string): number {
  return text.length;
}

/** YouTube limits the description in UTF-8 bytes. A lone surrogate is encoded as U+FFFD (3 bytes). */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Whitespace-only text publishes as nothing, so it does not satisfy "text required". */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

export interface MediaCounts {
  total: number;
  image: number;
  video: number;
  document: number;
  /** References whose kind the lookup does not know (or, outside LinkedIn, documents). */
  unknown: number;
}

/** Counts a part's media by kind; every reference counts toward `total`, known kind or not. */
export function countMedia(media: readonly MediaRef[], kindOf: MediaKindLookup): MediaCounts {
  const counts: MediaCounts = { total: 0, image: 0, video: 0, document: 0, unknown: 0 };
  for (const ref of media) {
    counts.total += 1;
    counts[kindOf(ref) ?? 'unknown'] += 1;
  }
  return counts;
}

/** TEXT_TOO_LONG when `length` exceeds `limit`; `unit` says how it was counted, for the message. */
export function checkTextLength(
  part: Part,
  length: number,
  limit: number,
  what: string,
  unit: string,
): RuleViolation[] {
  return length > limit
    ? [
        violation(
          part.textField,
          'TEXT_TOO_LONG',
          `${what} is ${length} ${unit}; the limit is ${limit}.`,
          limit,
        ),
      ]
    : [];
}

/** Seconds a network takes a video for, per post type; a bound left out is not checked. */
export interface DurationLimit {
  minSeconds?: number;
  maxSeconds?: number;
  /** Names the video in messages, e.g. "An Instagram story video". */
  label: string;
}

/** A network's video duration limits by post type; a type left out is not checked. */
export type VideoDurations = Partial<Readonly<Record<PostType, DurationLimit>>>;

/**
 * What a network's content rules are (networks/*.md), declared in `shared/networks/<net>/rules.ts`
 * and held by its definition; the domain's platform rules (index.ts) run them.
 */
export interface NetworkRules<O = unknown> {
  /**
   * Its text, shape and media checks. A method, so rules whose check reads its network's options
   * (`NetworkRules<YouTubeOptions>`) are held as `NetworkRules`: the domain hands each check only
   * `platformOptions.<its platform>`, which that network's own options schema read.
   */
  check(input: RuleInput<O>): RuleViolation[];
  /** Its video duration limits by post type. */
  readonly videoDurations: VideoDurations;
  /** Whether it takes documents (a media kind the other networks refuse). */
  readonly takesDocuments: boolean;
  /** Whether it takes user tags on media (`media[i].userTags`); the other networks refuse them (400). */
  readonly takesUserTags: boolean;
}
