import type { MediaKind, MediaKindLookup, PostShape } from '../post-shape.js';
import type { RuleViolation } from '../rule-violation.js';
import { isBlank, mediaPath, type Part, violation } from './helpers.js';

// Shape rules shared by the platforms: media count and kinds of one part, one-item posts, carousels,
// threads.

/** How many media of which kinds one part may carry; `max` 0 means "no media". */
export interface MediaRule {
  min: number;
  max: number;
  kinds: readonly MediaKind[];
  /** Names the post in messages, e.g. "A LinkedIn image post". */
  label: string;
}

/** MEDIA_KIND_NOT_ALLOWED for each reference of a known kind outside `kinds`; unknown kinds are skipped. */
export function checkMediaKinds(
  part: Part,
  kinds: readonly MediaKind[],
  kindOf: MediaKindLookup,
  label: string,
): RuleViolation[] {
  const out: RuleViolation[] = [];
  part.media.forEach((ref, j) => {
    const kind = kindOf(ref);
    if (kind !== undefined && !kinds.includes(kind)) {
      out.push(
        violation(
          mediaPath(part, j),
          'MEDIA_KIND_NOT_ALLOWED',
          `${label} takes ${kinds.join(' or ')} media, not ${kind}.`,
        ),
      );
    }
  });
  return out;
}

/** Count and kind checks of one part's media against a rule. */
export function checkPartMedia(part: Part, rule: MediaRule, kindOf: MediaKindLookup): RuleViolation[] {
  const count = part.media.length;
  if (rule.max === 0) {
    return count > 0
      ? [
          violation(
            part.mediaField,
            'MEDIA_NOT_ALLOWED',
            `${rule.label} carries no media; found ${count}.`,
            0,
          ),
        ]
      : [];
  }
  const out: RuleViolation[] = [];
  if (count === 0 && rule.min > 0) {
    out.push(
      violation(
        part.mediaField,
        'MEDIA_REQUIRED',
        `${rule.label} needs ${describeRange(rule)} media.`,
        rule.min,
      ),
    );
  } else if (count < rule.min) {
    out.push(
      violation(
        part.mediaField,
        'TOO_FEW_MEDIA',
        `${rule.label} needs ${describeRange(rule)} media; found ${count}.`,
        rule.min,
      ),
    );
  } else if (count > rule.max) {
    out.push(
      violation(
        part.mediaField,
        'TOO_MANY_MEDIA',
        `${rule.label} takes ${describeRange(rule)} media; found ${count}.`,
        rule.max,
      ),
    );
  }
  out.push(...checkMediaKinds(part, rule.kinds, kindOf, rule.label));
  return out;
}

/**
 * A type that publishes one post with media of one rule (an image post, a reel, a video…): string
 * content or a single item, and that item's media within the rule.
 */
export function checkSingleMediaPost(
  draft: PostShape,
  parts: readonly Part[],
  rule: MediaRule,
  kindOf: MediaKindLookup,
): RuleViolation[] {
  return [
    ...checkSingleItem(draft, rule.label),
    ...parts.flatMap((part) => checkPartMedia(part, rule, kindOf)),
  ];
}

function describeRange(rule: { min: number; max: number }): string {
  if (rule.min === rule.max) return `exactly ${rule.min}`;
  return rule.min === 0 ? `at most ${rule.max}` : `${rule.min} to ${rule.max}`;
}

/**
 * Post types other than thread and carousel publish one post: string content, or an array of
 * exactly one item (accepted so a client can use one shape everywhere).
 */
export function checkSingleItem(draft: PostShape, label: string): RuleViolation[] {
  if (!Array.isArray(draft.content)) return [];
  if (draft.content.length === 0) {
    return [violation('content', 'TOO_FEW_ITEMS', `${label} needs its text as a string or as one item.`, 1)];
  }
  if (draft.content.length > 1) {
    return [
      violation(
        'content',
        'TOO_MANY_ITEMS',
        `${label} is one post: use a string or a single item; found ${draft.content.length} items.`,
        1,
      ),
    ];
  }
  return [];
}

/** A text post is one post of text alone: a string or a single item, with text and no media. */
export function checkTextPost(
  draft: PostShape,
  parts: readonly Part[],
  label: string,
  kindOf: MediaKindLookup,
): RuleViolation[] {
  const out = checkSingleItem(draft, label);
  for (const part of parts) {
    if (isBlank(part.text)) out.push(violation(part.textField, 'TEXT_REQUIRED', `${label} needs text.`));
    out.push(...checkPartMedia(part, { min: 0, max: 0, kinds: [], label }, kindOf));
  }
  return out;
}

/** How many slides of which kinds a carousel takes. */
export interface CarouselRule {
  min: number;
  max: number;
  kinds: readonly MediaKind[];
  label: string;
}

/**
 * A carousel is one post with several slides and one caption. Two shapes are accepted:
 * - string content (the caption) with the slides in `media` — the common case, and what a
 *   client gets when it reads back a carousel it sent as a string;
 * - array content with one item per slide, each item holding exactly one media reference; the
 *   caption is the first item's text. Later items must carry no text: the networks have no
 *   per-slide caption (per-slide descriptions go in `alt`), and silently dropping text would
 *   publish something other than what the caller sent.
 */
export function checkCarousel(
  draft: PostShape,
  parts: readonly Part[],
  rule: CarouselRule,
  kindOf: MediaKindLookup,
): RuleViolation[] {
  if (!Array.isArray(draft.content)) {
    const [caption] = parts;
    return caption === undefined ? [] : checkPartMedia(caption, rule, kindOf);
  }
  const out: RuleViolation[] = [];
  const slides = draft.content.length;
  if (slides < rule.min) {
    out.push(
      violation(
        'content',
        'TOO_FEW_ITEMS',
        `${rule.label} needs ${describeRange(rule)} slides; found ${slides}.`,
        rule.min,
      ),
    );
  } else if (slides > rule.max) {
    out.push(
      violation(
        'content',
        'TOO_MANY_ITEMS',
        `${rule.label} takes ${describeRange(rule)} slides; found ${slides}.`,
        rule.max,
      ),
    );
  }
  const slideRule: MediaRule = {
    min: 1,
    max: 1,
    kinds: rule.kinds,
    label: `Each slide of ${lowerFirst(rule.label)}`,
  };
  parts.forEach((part, i) => {
    if (i > 0 && !isBlank(part.text)) {
      out.push(
        violation(
          part.textField,
          'CONTENT_SHAPE',
          `${rule.label} has one caption, the first item's text; put slide descriptions in the media's alt.`,
        ),
      );
    }
    out.push(...checkPartMedia(part, slideRule, kindOf));
  });
  return out;
}

/** How many posts a thread takes, and what each post may carry. */
export interface ThreadRule {
  min: number;
  max: number;
  /** Names the thread in messages, e.g. "A <network> thread". */
  label: string;
  /** The network's own media rule for one post of the thread (its media count and kinds). */
  postMedia: (part: Part) => RuleViolation[];
}

/**
 * A thread is posts published as replies, one item a post: array content of `min` to `max` items,
 * each with text or media (or both), each item's media within the network's per-post rule.
 */
export function checkThread(
  content: string | readonly unknown[],
  parts: readonly Part[],
  rule: ThreadRule,
): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (typeof content === 'string') {
    out.push(violation('content', 'CONTENT_SHAPE', `${rule.label} needs array content: one item per post.`));
  } else if (content.length < rule.min) {
    out.push(
      violation(
        'content',
        'TOO_FEW_ITEMS',
        `${rule.label} needs at least ${rule.min} items; found ${content.length}.`,
        rule.min,
      ),
    );
  } else if (content.length > rule.max) {
    out.push(
      violation(
        'content',
        'TOO_MANY_ITEMS',
        `${rule.label} takes at most ${rule.max} items; found ${content.length}.`,
        rule.max,
      ),
    );
  }
  for (const part of parts) {
    if (isBlank(part.text) && part.media.length === 0) {
      out.push(violation(part.textField, 'TEXT_REQUIRED', 'Each post of a thread needs text or media.'));
    }
    out.push(...rule.postMedia(part));
  }
  return out;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
