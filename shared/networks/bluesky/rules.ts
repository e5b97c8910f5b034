import { PLATFORM_OPTION_NOT_ALLOWED } from '../../domain/network-options.js';
import {
  checkTextLength,
  countMedia,
  type DurationLimit,
  isBlank,
  type NetworkRules,
  type Part,
  type PlatformCheck,
  utf8ByteLength,
  type VideoDurations,
  violation,
} from '../../domain/platform-rules/helpers.js';
import { checkSingleItem, checkSingleMediaPost, checkThread } from '../../domain/platform-rules/shapes.js';
import type { MediaKindLookup, MediaRef } from '../../domain/post-shape.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import {
  BLUESKY_MAX_GRAPHEMES,
  BLUESKY_MAX_IMAGES,
  BLUESKY_MAX_TEXT_BYTES,
  BLUESKY_MAX_VIDEO_SECONDS,
  BLUESKY_THREAD_MAX_ITEMS,
  BLUESKY_THREAD_MIN_ITEMS,
  graphemeLength,
} from './limits.js';
import type { BlueskyOptions } from './options-schema.js';

const LABEL = {
  text: 'A Bluesky text post',
  image: 'A Bluesky image post',
  video: 'A Bluesky video post',
  thread: 'A Bluesky thread',
};

/**
 * Bluesky's content rules (research §2): 300 graphemes and 3,000 UTF-8 bytes a post; a post embeds
 * ONE thing: 1–4 images, or one video (never both); a thread is posts chained as replies.
 */
export const checkBluesky: PlatformCheck<BlueskyOptions> = ({
  draft,
  options,
  parts,
  kindOf,
  typeAllowed,
}) => {
  const out = parts.flatMap(textViolations);
  out.push(...firstCommentMedia(draft.firstComment?.media ?? [], kindOf));
  if (draft.link && options?.linkCard) {
    out.push({
      field: 'platformOptions.bluesky.linkCard',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message:
        'A post has one link card: give `link` (the card is built from it and the page) or the older platformOptions.bluesky.linkCard, not both.',
    });
  }
  if (!typeAllowed) return out;
  switch (draft.postType) {
    case 'text':
      out.push(...checkSingleItem(draft, LABEL.text));
      for (const part of parts) {
        if (isBlank(part.text))
          out.push(violation(part.textField, 'TEXT_REQUIRED', `${LABEL.text} needs text.`));
        if (part.media.length > 0)
          out.push(violation(part.mediaField, 'MEDIA_NOT_ALLOWED', `${LABEL.text} carries no media.`));
      }
      break;
    case 'image':
      out.push(
        ...checkSingleMediaPost(
          draft,
          parts,
          { min: 1, max: BLUESKY_MAX_IMAGES, kinds: ['image'], label: LABEL.image },
          kindOf,
        ),
      );
      break;
    case 'video':
      out.push(
        ...checkSingleMediaPost(
          draft,
          parts,
          { min: 1, max: 1, kinds: ['video'], label: LABEL.video },
          kindOf,
        ),
      );
      break;
    case 'thread':
      out.push(
        ...checkThread(draft.content, parts, {
          min: BLUESKY_THREAD_MIN_ITEMS,
          max: BLUESKY_THREAD_MAX_ITEMS,
          label: LABEL.thread,
          postMedia: (part) => postMedia(part, kindOf),
        }),
      );
      break;
    default:
      // Other types are not Bluesky's and never get here (typeAllowed is false).
      break;
  }
  return out;
};

function textViolations(part: Part): RuleViolation[] {
  return [
    ...checkTextLength(part, graphemeLength(part.text), BLUESKY_MAX_GRAPHEMES, 'The text', 'graphemes'),
    ...checkTextLength(part, utf8ByteLength(part.text), BLUESKY_MAX_TEXT_BYTES, 'The text', 'bytes of UTF-8'),
  ];
}

/**
 * A first comment is a reply record, embedding one thing like a post: up to 4 images or one video.
 * Its length needs no check here: the generic one (300 code points) is stricter than Bluesky's 300
 * graphemes, and 300 code points are at most 1,200 bytes, well under 3,000.
 */
function firstCommentMedia(media: readonly MediaRef[], kindOf: MediaKindLookup): RuleViolation[] {
  const counts = countMedia(media, kindOf);
  if (counts.video === 0 || counts.total <= 1) return [];
  return [
    violation(
      'firstComment.media',
      'TOO_MANY_MEDIA',
      `A Bluesky comment with a video carries nothing else; found ${counts.total} media.`,
      1,
    ),
  ];
}

/** One embed a post: up to 4 images, or one video on its own. */
function postMedia(part: Part, kindOf: MediaKindLookup): RuleViolation[] {
  const counts = countMedia(part.media, kindOf);
  if (counts.video > 0 && counts.total > 1) {
    return [
      violation(
        part.mediaField,
        'TOO_MANY_MEDIA',
        `A Bluesky post with a video carries nothing else; found ${counts.total} media.`,
        1,
      ),
    ];
  }
  if (counts.total > BLUESKY_MAX_IMAGES) {
    return [
      violation(
        part.mediaField,
        'TOO_MANY_MEDIA',
        `A Bluesky post takes at most ${BLUESKY_MAX_IMAGES} images; found ${counts.total} media.`,
        BLUESKY_MAX_IMAGES,
      ),
    ];
  }
  return [];
}

const BLUESKY_VIDEO: DurationLimit = { maxSeconds: BLUESKY_MAX_VIDEO_SECONDS, label: 'A video on Bluesky' };

export const blueskyVideoDurations: VideoDurations = { video: BLUESKY_VIDEO, thread: BLUESKY_VIDEO };

/** Bluesky's content rules, as its definition holds them. */
export const blueskyRules: NetworkRules<BlueskyOptions> = {
  check: checkBluesky,
  videoDurations: blueskyVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
