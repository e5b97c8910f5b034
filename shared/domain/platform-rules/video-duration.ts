import type { Platform } from '../platforms.js';
import type { MediaRef, PostDraft, PostType, RuleViolation } from '../posts.js';
import { type Part, partsOf, violation } from './helpers.js';

/** Seconds a network takes a video for, per post type; a bound left out is not checked. */
export interface DurationLimit {
  minSeconds?: number;
  maxSeconds?: number;
  /** Names the video in messages, e.g. "An Instagram story video". */
  label: string;
}

/**
 * X: 0.5 s to 125 minutes for a Post's video (`tweet_video`). 125 minutes is an X Premium account's
 * cap; a default account's is 20 minutes, which only X knows applies (its 403 at publish time).
 * Source: docs.x.com/x-api/media/quickstart/best-practices, "Size and duration limits".
 */
const X_VIDEO: DurationLimit = { minSeconds: 0.5, maxSeconds: 125 * 60, label: 'A video on X' };
/**
 * LinkedIn: 3 s to 30 minutes. LinkedIn's video specifications (business.linkedin.com, video ads
 * specs, the figure LinkedIn's organic video help repeats); the Videos API page states no duration.
 */
const LINKEDIN_VIDEO: DurationLimit = { minSeconds: 3, maxSeconds: 30 * 60, label: 'A LinkedIn video' };
/** Instagram: IG User Media reference, "Reel Specifications": 3 seconds to 15 minutes. */
const INSTAGRAM_REEL: DurationLimit = { minSeconds: 3, maxSeconds: 15 * 60, label: 'An Instagram reel' };
/** Instagram: IG User Media reference, "Story Video Specifications": 3 to 60 seconds. */
const INSTAGRAM_STORY: DurationLimit = {
  minSeconds: 3,
  maxSeconds: 60,
  label: 'An Instagram story video',
};
/**
 * TikTok: the media transfer guide's ceiling, 10 minutes; each creator's own cap
 * (`max_video_post_duration_sec`, often lower) is TikTok's answer at publish time, checked by the
 * connector before it uploads.
 */
const TIKTOK_VIDEO: DurationLimit = { maxSeconds: 10 * 60, label: 'A TikTok video' };
/**
 * YouTube: 12 hours for a verified channel (15 minutes until it is verified, which only YouTube
 * knows); a Short at most 3 minutes (support.google.com/youtube/answer/15424877).
 */
const YOUTUBE_VIDEO: DurationLimit = { maxSeconds: 12 * 60 * 60, label: 'A YouTube video' };
const YOUTUBE_SHORT: DurationLimit = { maxSeconds: 3 * 60, label: 'A YouTube Short' };

/**
 * The duration limits by network and post type. Instagram carousel videos are not listed: Meta's
 * current reference gives no duration for them.
 */
export const VIDEO_DURATION_LIMITS: Readonly<
  Record<Platform, Partial<Readonly<Record<PostType, DurationLimit>>>>
> = {
  twitter: { video: X_VIDEO, thread: X_VIDEO },
  linkedin: { video: LINKEDIN_VIDEO },
  instagram: { reel: INSTAGRAM_REEL, story: INSTAGRAM_STORY },
  tiktok: { video: TIKTOK_VIDEO },
  youtube: { video: YOUTUBE_VIDEO, short: YOUTUBE_SHORT },
};

/**
 * A referenced video's duration in seconds, when known: from the stored record for `id` media
 * (read when it was confirmed or imported), from the fetched file for URL media at delivery.
 * Undefined for anything else (not a video, not read yet, or unreadable), which is not checked.
 */
export type VideoDurationLookup = (ref: MediaRef) => number | undefined;

/**
 * VIDEO_TOO_LONG / VIDEO_TOO_SHORT for each video whose known duration is outside its network's
 * limit for the post type, at the video's field (`media[0]`, `content[1].media[0]`), with the limit
 * broken in seconds.
 */
export function checkVideoDurations(draft: PostDraft, durationOf: VideoDurationLookup): RuleViolation[] {
  const limit = VIDEO_DURATION_LIMITS[draft.platform][draft.postType];
  if (!limit) return [];
  return partsOf(draft).flatMap((part) => partViolations(part, limit, durationOf));
}

function partViolations(part: Part, limit: DurationLimit, durationOf: VideoDurationLookup): RuleViolation[] {
  return part.media.flatMap((ref, j) => {
    const seconds = durationOf(ref);
    if (seconds === undefined) return [];
    const field = `${part.mediaField}[${j}]`;
    if (limit.maxSeconds !== undefined && seconds > limit.maxSeconds) {
      return [
        violation(
          field,
          'VIDEO_TOO_LONG',
          `${limit.label} may last at most ${describe(limit.maxSeconds)}; this one lasts ${describe(seconds)}.`,
          limit.maxSeconds,
        ),
      ];
    }
    if (limit.minSeconds !== undefined && seconds < limit.minSeconds) {
      return [
        violation(
          field,
          'VIDEO_TOO_SHORT',
          `${limit.label} must last at least ${describe(limit.minSeconds)}; this one lasts ${describe(seconds)}.`,
          limit.minSeconds,
        ),
      ];
    }
    return [];
  });
}

/** "61.5 s", "20 min 5 s", "0.4 s": what a person reads in the message. */
function describe(seconds: number): string {
  if (seconds < 120) return `${Number(seconds.toFixed(2))} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
