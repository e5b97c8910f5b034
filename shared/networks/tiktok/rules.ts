import {
  checkTextLength,
  type DurationLimit,
  type NetworkRules,
  type Part,
  type PlatformCheck,
  utf16Length,
  type VideoDurations,
} from '../../domain/platform-rules/helpers.js';
import { checkCarousel, checkSingleMediaPost } from '../../domain/platform-rules/shapes.js';
import type { RuleViolation } from '../../domain/rule-violation.js';

/** networks/tiktok.md §3 "Direct Post — video": `title` ≤ 2,200 UTF-16 code units. */
export const TIKTOK_MAX_VIDEO_TITLE = 2200;
/**
 * networks/tiktok.md §4 "Photo posts": description ≤ 4,000 UTF-16 units. Our post text becomes the
 * photo post's description; its separate title (≤ 90) is the connector's business.
 */
export const TIKTOK_MAX_PHOTO_DESCRIPTION = 4000;
/**
 * networks/tiktok.md §4 "up to 35" images and §6 "One video or 1–35 photos": a single photo is a
 * valid photo post (TikTok shows it as a still with music), so the minimum is 1, not 2.
 */
export const TIKTOK_PHOTO_MIN = 1;
export const TIKTOK_PHOTO_MAX = 35;
/** networks/tiktok.md §3/§6: a video post is one video. */
export const TIKTOK_VIDEOS_PER_POST = 1;

export const checkTikTok: PlatformCheck = ({ draft, parts, kindOf, typeAllowed }) => {
  // A photo post's text is its description; every other post's (including a type TikTok does not
  // take, where the video title is the nearest rule) is the video title.
  const photo = typeAllowed && draft.postType === 'carousel';
  const out = parts.flatMap((part) => textViolations(part, photo));
  if (!typeAllowed) return out;
  if (draft.postType === 'video') {
    const rule = {
      min: 1,
      max: TIKTOK_VIDEOS_PER_POST,
      kinds: ['video'] as const,
      label: 'A TikTok video post',
    };
    out.push(...checkSingleMediaPost(draft, parts, rule, kindOf));
  } else if (photo) {
    out.push(
      ...checkCarousel(
        draft,
        parts,
        { min: TIKTOK_PHOTO_MIN, max: TIKTOK_PHOTO_MAX, kinds: ['image'], label: 'A TikTok photo post' },
        kindOf,
      ),
    );
  }
  return out;
};

function textViolations(part: Part, photo: boolean): RuleViolation[] {
  return photo
    ? checkTextLength(
        part,
        utf16Length(part.text),
        TIKTOK_MAX_PHOTO_DESCRIPTION,
        'The description',
        'UTF-16 code units',
      )
    : checkTextLength(part, utf16Length(part.text), TIKTOK_MAX_VIDEO_TITLE, 'The title', 'UTF-16 code units');
}

/**
 * TikTok: the media transfer guide's ceiling, 10 minutes; each creator's own cap
 * (`max_video_post_duration_sec`, often lower) is TikTok's answer at publish time, checked by the
 * connector before it uploads.
 */
const TIKTOK_VIDEO: DurationLimit = { maxSeconds: 10 * 60, label: 'A TikTok video' };

export const tiktokVideoDurations: VideoDurations = { video: TIKTOK_VIDEO };

/** TikTok's content rules, as its definition holds them. */
export const tiktokRules: NetworkRules = {
  check: checkTikTok,
  videoDurations: tiktokVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
