import { PLATFORM_OPTION_NOT_ALLOWED } from '../../domain/network-options.js';
import { violation } from '../../domain/platform-rules/helpers.js';
import type { MediaKindLookup, PostShape } from '../../domain/post-shape.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { YOUTUBE_DEFAULT_PRIVACY, type YouTubeOptions } from './options-schema.js';

const PUBLISH_AT_FIELD = 'platformOptions.youtube.publishAt';

/**
 * `publishAt` must lie ahead when the video is uploaded: ahead of now, and of the post's own
 * scheduledAt (the upload starts then). A time already past when the upload starts is refused by
 * the connector too (PUBLISH_AT_PASSED), since YouTube's answer to one is not documented.
 */
export function publishAtViolations(
  options: YouTubeOptions,
  scheduledAt: string | undefined,
  nowMs: number,
): RuleViolation[] {
  if (!options.publishAt) return [];
  const at = Date.parse(options.publishAt);
  if (at <= nowMs) {
    return [
      {
        field: PUBLISH_AT_FIELD,
        code: PLATFORM_OPTION_NOT_ALLOWED,
        message: 'publishAt is not in the future: YouTube schedules a video only for a time ahead.',
      },
    ];
  }
  if (scheduledAt !== undefined && at <= Date.parse(scheduledAt)) {
    return [
      {
        field: PUBLISH_AT_FIELD,
        code: PLATFORM_OPTION_NOT_ALLOWED,
        message:
          'publishAt is not after scheduledAt: the video is uploaded at scheduledAt, and YouTube makes it public at publishAt, which must come later.',
      },
    ];
  }
  return [];
}

/**
 * A first comment goes on a video viewers can see: YouTube shows no comment box on a private video,
 * and its reference says nothing of commenting on one, so a private video (the default here) or a
 * scheduled one (private until publishAt) is refused a first comment before anything is created.
 */
export function firstCommentPrivacyViolations(draft: PostShape, options: YouTubeOptions): RuleViolation[] {
  if (!draft.firstComment) return [];
  const privacy = options.privacyStatus ?? YOUTUBE_DEFAULT_PRIVACY;
  if (options.publishAt) {
    return [
      violation(
        'firstComment',
        'FIRST_COMMENT_NOT_SUPPORTED',
        'A scheduled YouTube video (publishAt) stays private until then, and a private video takes no comments: leave out the first comment or publishAt.',
      ),
    ];
  }
  if (privacy !== 'private') return [];
  return [
    violation(
      'firstComment',
      'FIRST_COMMENT_NOT_SUPPORTED',
      `A private YouTube video takes no comments${options.privacyStatus === undefined ? ' (private is the default here)' : ''}: set platformOptions.youtube.privacyStatus to public or unlisted for a first comment.`,
    ),
  ];
}

/** The thumbnail is an image (a JPEG or PNG of at most 2 MB: its type and size are checked at publish). */
export function thumbnailViolations(options: YouTubeOptions, kindOf: MediaKindLookup): RuleViolation[] {
  if (!options.thumbnail) return [];
  const kind = kindOf(options.thumbnail);
  if (kind === undefined || kind === 'image') return [];
  return [
    violation(
      'platformOptions.youtube.thumbnail',
      'MEDIA_KIND_NOT_ALLOWED',
      `A YouTube thumbnail is a JPEG or PNG image, not ${kind === 'video' ? 'a video' : `a ${kind}`}.`,
    ),
  ];
}
