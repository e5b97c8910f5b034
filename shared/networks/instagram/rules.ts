import {
  checkTextLength,
  codePointLength,
  type DurationLimit,
  type NetworkRules,
  type Part,
  type PlatformCheck,
  type VideoDurations,
  violation,
} from '../../domain/platform-rules/helpers.js';
import { checkCarousel, checkSingleMediaPost, type MediaRule } from '../../domain/platform-rules/shapes.js';
import type { RuleViolation } from '../../domain/rule-violation.js';

/** networks/instagram.md §3 "Limits": caption ≤ 2,200 characters (Meta reference via third-party copies). */
export const INSTAGRAM_MAX_CAPTION = 2200;
/** networks/instagram.md §3: ≤ 30 hashtags per caption. */
export const INSTAGRAM_MAX_HASHTAGS = 30;
/** networks/instagram.md §3: ≤ 20 @-tags (mentions) per caption. */
export const INSTAGRAM_MAX_MENTIONS = 20;
/** A carousel of one is an image post; the Graph API wants at least 2 children (not in the doc: our default). */
export const INSTAGRAM_CAROUSEL_MIN = 2;
/** networks/instagram.md §3: "Carousel: up to 10 items, images and videos mixed" (20 via the API unconfirmed). */
export const INSTAGRAM_CAROUSEL_MAX = 10;
/** networks/instagram.md §2: image, reel and story containers carry one `image_url` or `video_url`. */
export const INSTAGRAM_MEDIA_PER_POST = 1;

/**
 * A hashtag is `#` + letters, digits or `_`, not glued to a preceding word character (so `a#b`
 * and URL fragments like `page#top` are not counted). Every occurrence counts, repeats included.
 */
const HASHTAG = /(?<![\p{L}\p{N}_&/])#[\p{L}\p{N}_]+/gu;
/** A mention is `@` + an Instagram username character; `@` inside a word (an e-mail address) is not one. */
const MENTION = /(?<![\p{L}\p{N}_.@])@[A-Za-z0-9_.]+/gu;

export function countHashtags(text: string): number {
  return text.match(HASHTAG)?.length ?? 0;
}

export function countMentions(text: string): number {
  return text.match(MENTION)?.length ?? 0;
}

const SINGLE_MEDIA: Readonly<Record<'image' | 'reel' | 'story', MediaRule>> = {
  image: { min: 1, max: INSTAGRAM_MEDIA_PER_POST, kinds: ['image'], label: 'An Instagram image post' },
  reel: { min: 1, max: INSTAGRAM_MEDIA_PER_POST, kinds: ['video'], label: 'An Instagram reel' },
  story: { min: 1, max: INSTAGRAM_MEDIA_PER_POST, kinds: ['image', 'video'], label: 'An Instagram story' },
};

export const checkInstagram: PlatformCheck = ({ draft, parts, kindOf, typeAllowed }) => {
  const out = parts.flatMap(textViolations);
  if (!typeAllowed) return out;
  switch (draft.postType) {
    case 'image':
    case 'reel':
    case 'story': {
      out.push(...checkSingleMediaPost(draft, parts, SINGLE_MEDIA[draft.postType], kindOf));
      break;
    }
    case 'carousel':
      out.push(
        ...checkCarousel(
          draft,
          parts,
          {
            min: INSTAGRAM_CAROUSEL_MIN,
            max: INSTAGRAM_CAROUSEL_MAX,
            kinds: ['image', 'video'],
            label: 'An Instagram carousel',
          },
          kindOf,
        ),
      );
      break;
    default:
      break;
  }
  return out;
};

function textViolations(part: Part): RuleViolation[] {
  const out = checkTextLength(
    part,
    codePointLength(part.text),
    INSTAGRAM_MAX_CAPTION,
    'The caption',
    'characters',
  );
  const hashtags = countHashtags(part.text);
  if (hashtags > INSTAGRAM_MAX_HASHTAGS) {
    out.push(
      violation(
        part.textField,
        'TOO_MANY_HASHTAGS',
        `The caption has ${hashtags} hashtags; Instagram allows ${INSTAGRAM_MAX_HASHTAGS}.`,
        INSTAGRAM_MAX_HASHTAGS,
      ),
    );
  }
  const mentions = countMentions(part.text);
  if (mentions > INSTAGRAM_MAX_MENTIONS) {
    out.push(
      violation(
        part.textField,
        'TOO_MANY_MENTIONS',
        `The caption has ${mentions} @-mentions; Instagram allows ${INSTAGRAM_MAX_MENTIONS}.`,
        INSTAGRAM_MAX_MENTIONS,
      ),
    );
  }
  return out;
}

/** Instagram: IG User Media reference, "Reel Specifications": 3 seconds to 15 minutes. */
const INSTAGRAM_REEL: DurationLimit = { minSeconds: 3, maxSeconds: 15 * 60, label: 'An Instagram reel' };
/** Instagram: IG User Media reference, "Story Video Specifications": 3 to 60 seconds. */
const INSTAGRAM_STORY: DurationLimit = {
  minSeconds: 3,
  maxSeconds: 60,
  label: 'An Instagram story video',
};

/** Carousel videos are not listed: Meta's current reference gives no duration for them. */
export const instagramVideoDurations: VideoDurations = { reel: INSTAGRAM_REEL, story: INSTAGRAM_STORY };

/** Instagram's content rules, as its definition holds them. */
export const instagramRules: NetworkRules = {
  check: checkInstagram,
  videoDurations: instagramVideoDurations,
  takesDocuments: false,
  // Only Instagram tags people on a photo (networks/instagram.md §2, `user_tags`).
  takesUserTags: true,
};
