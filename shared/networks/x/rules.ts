import parseTweet from 'twitter-text/dist/parseTweet.js';
import {
  checkTextLength,
  codePointLength,
  countMedia,
  type DurationLimit,
  type NetworkRules,
  type Part,
  type PlatformCheck,
  type VideoDurations,
  violation,
} from '../../domain/platform-rules/helpers.js';
import { checkSingleMediaPost, checkTextPost, checkThread } from '../../domain/platform-rules/shapes.js';
import type { MediaKindLookup, PostShape } from '../../domain/post-shape.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { textWithLink } from './link-text.js';

/**
 * networks/twitter.md §6 "Text rules": 280 weighted characters (CJK/emoji 2, every URL 23, NFC),
 * counted with twitter-text as the doc advises. Long posts for subscribers have no documented limit.
 */
export const X_MAX_WEIGHTED_LENGTH = 280;
/** networks/twitter.md §1 (`media.media_ids` maxItems 4) and §2 "up to 4 photos". */
export const X_MAX_IMAGES = 4;
/** networks/twitter.md §2: "or 1 animated GIF or 1 video" — a video goes alone. */
export const X_MAX_VIDEOS = 1;
/** A thread of one post is just a post; the doc (§1 "Thread") sets no minimum, this is ours. */
export const X_THREAD_MIN_ITEMS = 2;
/** networks/twitter.md gives no thread ceiling; 25 is our default, bounding one publish job. */
export const X_THREAD_MAX_ITEMS = 25;

const LABEL = {
  text: 'An X text post',
  image: 'An X image post',
  video: 'An X video post',
  thread: 'An X thread',
};

/** The weighted length X counts (URLs 23, CJK and emoji 2); twitter-text NFC-normalises first. */
export function xWeightedLength(text: string): number {
  return parseTweet(text).weightedLength;
}

export const checkTwitter: PlatformCheck = ({ draft, parts, kindOf, typeAllowed }) => {
  // The post's link goes in its first tweet's text (link-text.ts), where it counts 23 like any URL.
  const out = parts.flatMap((part, index) =>
    textViolations(index === 0 ? { ...part, text: textWithLink(part.text, draft.link) } : part),
  );
  out.push(...firstCommentViolations(draft.firstComment, kindOf));
  if (!typeAllowed) return out;
  switch (draft.postType) {
    case 'text':
      out.push(...checkTextPost(draft, parts, LABEL.text, kindOf));
      break;
    case 'image':
      out.push(
        ...checkSingleMediaPost(
          draft,
          parts,
          { min: 1, max: X_MAX_IMAGES, kinds: ['image'], label: LABEL.image },
          kindOf,
        ),
      );
      break;
    case 'video':
      out.push(
        ...checkSingleMediaPost(
          draft,
          parts,
          { min: 1, max: X_MAX_VIDEOS, kinds: ['video'], label: LABEL.video },
          kindOf,
        ),
      );
      break;
    case 'thread':
      // Each post of a thread is a full post of its own: text and/or media, ≤ 4 images or 1 video.
      out.push(
        ...checkThread(draft.content, parts, {
          min: X_THREAD_MIN_ITEMS,
          max: X_THREAD_MAX_ITEMS,
          label: LABEL.thread,
          postMedia: (part) => postMedia(part, kindOf),
        }),
      );
      break;
    default:
      // Other types are not allowed on X and never get here (typeAllowed is false).
      break;
  }
  return out;
};

function textViolations(part: Part): RuleViolation[] {
  return checkTextLength(
    part,
    xWeightedLength(part.text),
    X_MAX_WEIGHTED_LENGTH,
    'The text',
    'weighted characters (URLs count 23, CJK and emoji 2)',
  );
}

/**
 * A first comment is a reply, a post like any other: 280 weighted characters, up to 4 images or one
 * video. The generic check (FirstCommentSupport.maxLength) counts code points; X weighs CJK and
 * emoji double, so only what that count lets through is reported here, once.
 */
function firstCommentViolations(
  comment: PostShape['firstComment'],
  kindOf: MediaKindLookup,
): RuleViolation[] {
  if (!comment) return [];
  const out: RuleViolation[] = [];
  const weighted = xWeightedLength(comment.text);
  if (weighted > X_MAX_WEIGHTED_LENGTH && codePointLength(comment.text) <= X_MAX_WEIGHTED_LENGTH) {
    out.push(
      violation(
        'firstComment.text',
        'FIRST_COMMENT_TOO_LONG',
        `The first comment is ${weighted} weighted characters (URLs count 23, CJK and emoji 2); the limit is ${X_MAX_WEIGHTED_LENGTH}.`,
        X_MAX_WEIGHTED_LENGTH,
      ),
    );
  }
  const media = comment.media ?? [];
  const counts = countMedia(media, kindOf);
  if (counts.video > 0 && counts.total > X_MAX_VIDEOS) {
    out.push(
      violation(
        'firstComment.media',
        'TOO_MANY_MEDIA',
        `A first comment with a video carries nothing else (X allows ${X_MAX_IMAGES} images or ${X_MAX_VIDEOS} video); found ${counts.total} media.`,
        X_MAX_VIDEOS,
      ),
    );
  }
  return out;
}

/** X's per-post media rule when any media is welcome: up to 4 images, or one video on its own. */
function postMedia(part: Part, kindOf: MediaKindLookup): RuleViolation[] {
  const counts = countMedia(part.media, kindOf);
  if (counts.video > 0 && counts.total > X_MAX_VIDEOS) {
    return [
      violation(
        part.mediaField,
        'TOO_MANY_MEDIA',
        `A post with a video carries nothing else (X allows ${X_MAX_IMAGES} images or ${X_MAX_VIDEOS} video); found ${counts.total} media.`,
        X_MAX_VIDEOS,
      ),
    ];
  }
  if (counts.total > X_MAX_IMAGES) {
    return [
      violation(
        part.mediaField,
        'TOO_MANY_MEDIA',
        `A post takes at most ${X_MAX_IMAGES} images; found ${counts.total} media.`,
        X_MAX_IMAGES,
      ),
    ];
  }
  return [];
}

/**
 * X: 0.5 s to 125 minutes for a Post's video (`tweet_video`). 125 minutes is an X Premium account's
 * cap; a default account's is 20 minutes, which only X knows applies (its 403 at publish time).
 * Source: docs.x.com/x-api/media/quickstart/best-practices, "Size and duration limits".
 */
const X_VIDEO: DurationLimit = { minSeconds: 0.5, maxSeconds: 125 * 60, label: 'A video on X' };

export const xVideoDurations: VideoDurations = { video: X_VIDEO, thread: X_VIDEO };

/** X's content rules, as its definition holds them. */
export const xRules: NetworkRules = {
  check: checkTwitter,
  videoDurations: xVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
