import { NETWORK_NAMES, PLATFORM_IDS, RULES_OF_PLATFORM } from '../../networks/definitions.js';
import {
  type MediaKindLookup,
  POST_TYPES_BY_PLATFORM,
  type PostDraft,
  type RuleViolation,
} from '../posts.js';
import { firstCommentViolations } from './first-comment.js';
import { type Part, partsOf, violation } from './helpers.js';
import { linkViolations } from './link.js';
import { checkVideoDurations, type VideoDurationLookup } from './video-duration.js';

export { RULE_CODES, type RuleCode } from './helpers.js';
export {
  checkVideoDurations,
  VIDEO_DURATION_LIMITS,
  type VideoDurationLookup,
} from './video-duration.js';

/** docs/api-decisions.md#media: documents are a LinkedIn-only kind (its rules say it takes them). */
const DOCUMENT_PLATFORMS = PLATFORM_IDS.filter((platform) => RULES_OF_PLATFORM[platform].takesDocuments);
const DOCUMENT_NETWORK_NAMES = DOCUMENT_PLATFORMS.map((platform) => NETWORK_NAMES[platform]).join(' or ');

/**
 * Checks a post against its network's rules (networks/*.md) and returns every violation at once,
 * empty when the post is publishable as far as we can tell before publishing.
 *
 * Order is stable, so clients and tests can rely on it: POST_TYPE_NOT_ALLOWED, MEDIA_MISPLACED,
 * DOCUMENT_NOT_ALLOWED (top-level media, then items in order), then the platform's text checks part
 * by part, then its shape and media checks (post-level first, then part by part), then the videos'
 * durations (VIDEO_TOO_LONG / VIDEO_TOO_SHORT, where `durationOf` knows them), then the first comment's
 * (first-comment.ts) and the link's (link.ts).
 *
 * A post type the platform does not take still gets the text checks (the text is wrong either way
 * and the caller can fix both in one go) but no shape checks, which would only restate the type error.
 *
 * `mediaKind` is undefined for references the caller could not resolve; those were reported
 * elsewhere, so they count toward media totals here but skip every kind rule.
 */
export function checkPlatformRules(
  draft: PostDraft,
  mediaKind: MediaKindLookup,
  durationOf: VideoDurationLookup = () => undefined,
): RuleViolation[] {
  const allowedTypes = POST_TYPES_BY_PLATFORM[draft.platform];
  const typeAllowed = allowedTypes.includes(draft.postType);
  const parts = partsOf(draft);
  const out: RuleViolation[] = [];

  if (!typeAllowed) {
    out.push(
      violation(
        'postType',
        'POST_TYPE_NOT_ALLOWED',
        `${draft.platform} does not take postType "${draft.postType}"; allowed: ${allowedTypes.join(', ')}.`,
      ),
    );
  }
  if (Array.isArray(draft.content) && draft.media.length > 0) {
    out.push(
      violation(
        'media',
        'MEDIA_MISPLACED',
        'With array content, media goes inside the items (content[i].media); top-level media is for string content.',
      ),
    );
  }

  const documentsAllowed = DOCUMENT_PLATFORMS.includes(draft.platform);
  if (!documentsAllowed) out.push(...documentViolations(draft, parts, mediaKind));
  // Outside the networks that take documents (LinkedIn) a document has had its one violation; hiding its kind keeps the platform's kind
  // checks from reporting the same reference twice (it still counts toward media totals).
  const kindOf: MediaKindLookup = documentsAllowed
    ? mediaKind
    : (ref) => {
        const kind = mediaKind(ref);
        return kind === 'document' ? undefined : kind;
      };

  const options = draft.platformOptions?.[draft.platform];
  out.push(...RULES_OF_PLATFORM[draft.platform].check({ draft, options, parts, kindOf, typeAllowed }));
  if (typeAllowed) out.push(...checkVideoDurations(draft, durationOf));
  out.push(...firstCommentViolations(draft, mediaKind), ...linkViolations(draft));
  return out;
}

/** DOCUMENT_NOT_ALLOWED for each document reference, misplaced top-level media included. */
function documentViolations(
  draft: PostDraft,
  parts: readonly Part[],
  mediaKind: MediaKindLookup,
): RuleViolation[] {
  const located: { field: string; kind: ReturnType<MediaKindLookup> }[] = [];
  // For string content the top-level media is the (only) part's media, so it is listed once.
  if (Array.isArray(draft.content)) {
    draft.media.forEach((ref, j) => {
      located.push({ field: `media[${j}]`, kind: mediaKind(ref) });
    });
  }
  for (const part of parts) {
    part.media.forEach((ref, j) => {
      located.push({ field: `${part.mediaField}[${j}]`, kind: mediaKind(ref) });
    });
  }
  return located
    .filter(({ kind }) => kind === 'document')
    .map(({ field }) =>
      violation(
        field,
        'DOCUMENT_NOT_ALLOWED',
        `Documents can only be posted to ${DOCUMENT_NETWORK_NAMES}, not ${draft.platform}; use an image or a video.`,
      ),
    );
}
