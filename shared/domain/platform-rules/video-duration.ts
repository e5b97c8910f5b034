import { RULES_OF_PLATFORM } from '../../networks/definitions.js';
import type { Platform } from '../platforms.js';
import type { MediaRef, PostDraft, RuleViolation } from '../posts.js';
import { type DurationLimit, type Part, partsOf, type VideoDurations, violation } from './helpers.js';

export type { DurationLimit } from './helpers.js';

/**
 * The duration limits by network and post type, as each network's rules declare them
 * (shared/networks/<net>/rules.ts).
 */
export const VIDEO_DURATION_LIMITS: Readonly<Record<Platform, VideoDurations>> = Object.fromEntries(
  Object.entries(RULES_OF_PLATFORM).map(([platform, rules]) => [platform, rules.videoDurations]),
) as Record<Platform, VideoDurations>;

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
