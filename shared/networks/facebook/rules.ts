import { PLATFORM_OPTION_NOT_ALLOWED } from '../../domain/network-options.js';
import {
  checkTextLength,
  codePointLength,
  type DurationLimit,
  isBlank,
  type NetworkRules,
  type Part,
  type PlatformCheck,
  type VideoDurations,
  violation,
} from '../../domain/platform-rules/helpers.js';
import {
  checkCarousel,
  checkPartMedia,
  checkSingleItem,
  checkSingleMediaPost,
  type MediaRule,
} from '../../domain/platform-rules/shapes.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { FACEBOOK_MULTI_PHOTO_MAX, FACEBOOK_MULTI_PHOTO_MIN } from './limits.js';
import type { FacebookOptions } from './options-schema.js';

/**
 * facebook-pages.md §6: a post's `message` up to 63,206 characters (peers' figure, not in Meta's
 * text; counted here in code points, the stricter reading of "characters" beside graphemes).
 */
export const FACEBOOK_MAX_MESSAGE = 63_206;

const SINGLE_MEDIA: Readonly<Record<'image' | 'video' | 'reel', MediaRule>> = {
  image: { min: 1, max: 1, kinds: ['image'], label: 'A Facebook photo post' },
  video: { min: 1, max: 1, kinds: ['video'], label: 'A Facebook video post' },
  reel: { min: 1, max: 1, kinds: ['video'], label: 'A Facebook reel' },
};
const TEXT_POST = 'A Facebook text post';

export const checkFacebook: PlatformCheck<FacebookOptions> = ({
  draft,
  options,
  parts,
  kindOf,
  typeAllowed,
}) => {
  const out = parts.flatMap(textViolations);
  if (options?.link && draft.link) {
    // Two links for one preview card: which one the caller meant is theirs to say.
    out.push({
      field: 'platformOptions.facebook.link',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: 'Give the link as the post’s link or as platformOptions.facebook.link, not both.',
    });
  }
  if (!typeAllowed) return out;
  switch (draft.postType) {
    case 'text':
      out.push(...checkSingleItem(draft, TEXT_POST));
      for (const part of parts) {
        // A link alone makes a post (its preview card); without one the post is its text.
        if (isBlank(part.text) && !options?.link && !draft.link)
          out.push(violation(part.textField, 'TEXT_REQUIRED', `${TEXT_POST} needs text or a link.`));
        out.push(...checkPartMedia(part, { min: 0, max: 0, kinds: [], label: TEXT_POST }, kindOf));
      }
      break;
    case 'image':
    case 'video':
    case 'reel':
      out.push(...checkSingleMediaPost(draft, parts, SINGLE_MEDIA[draft.postType], kindOf));
      break;
    case 'carousel':
      out.push(
        ...checkCarousel(
          draft,
          parts,
          {
            min: FACEBOOK_MULTI_PHOTO_MIN,
            max: FACEBOOK_MULTI_PHOTO_MAX,
            kinds: ['image'],
            label: 'A Facebook multi-photo post',
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
  return checkTextLength(
    part,
    codePointLength(part.text),
    FACEBOOK_MAX_MESSAGE,
    'The post text',
    'characters',
  );
}

/** facebook-pages.md §2.5, the current Reels page: 3 to 90 seconds (the older page's 4–60 s is superseded). */
const FACEBOOK_REEL: DurationLimit = { minSeconds: 3, maxSeconds: 90, label: 'A Facebook reel' };
/** Feed videos: up to 4 hours (third-party, unconfirmed in Meta's text). */
const FACEBOOK_VIDEO: DurationLimit = { maxSeconds: 4 * 60 * 60, label: 'A Facebook video' };

export const facebookVideoDurations: VideoDurations = { reel: FACEBOOK_REEL, video: FACEBOOK_VIDEO };

/** Facebook's content rules, as its definition holds them. */
export const facebookRules: NetworkRules<FacebookOptions> = {
  check: checkFacebook,
  videoDurations: facebookVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
