import {
  codePointLength,
  type DurationLimit,
  isBlank,
  type NetworkRules,
  type Part,
  type PlatformCheck,
  utf8ByteLength,
  type VideoDurations,
  violation,
} from '../../domain/platform-rules/helpers.js';
import { checkSingleMediaPost } from '../../domain/platform-rules/shapes.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { firstCommentPrivacyViolations, publishAtViolations, thumbnailViolations } from './option-rules.js';
import type { YouTubeOptions } from './options-schema.js';

/** networks/youtube.md §3 "Metadata constraints": `snippet.title` required, ≤ 100 characters. */
export const YOUTUBE_MAX_TITLE = 100;
/** networks/youtube.md §3: `snippet.description` ≤ 5000 bytes (bytes, not characters). */
export const YOUTUBE_MAX_DESCRIPTION_BYTES = 5000;
/** networks/youtube.md §1: `videos.insert` uploads one video; Shorts are the same upload (§4). */
export const YOUTUBE_VIDEOS_PER_POST = 1;

/** networks/youtube.md §3: neither title nor description may contain `<` or `>`. */
const ANGLE_BRACKETS = /[<>]/;

/**
 * Our post text carries both YouTube fields: the first line is the title, everything after the
 * first newline the description. The title is trimmed (a trailing `\r` of CRLF text included)
 * because YouTube shows it on one line; the description is kept byte for byte.
 * `platformOptions.youtube.title` / `.description` replace them: with a title given there, the
 * whole text is the description (unless a description is given there too).
 * The connector sends exactly these values, so the checks here and the upload agree.
 */
export function youtubeTitleAndDescription(
  text: string,
  options: Pick<YouTubeOptions, 'title' | 'description'> = {},
): { title: string; description: string } {
  if (options.title !== undefined) {
    return { title: options.title.trim(), description: options.description ?? text };
  }
  const newline = text.indexOf('\n');
  const fromText =
    newline === -1
      ? { title: text.trim(), description: '' }
      : { title: text.slice(0, newline).trim(), description: text.slice(newline + 1) };
  return options.description === undefined ? fromText : { ...fromText, description: options.description };
}

export const checkYouTube: PlatformCheck<YouTubeOptions> = (input) => {
  const { draft, parts, kindOf, typeAllowed } = input;
  const options = input.options ?? {};
  const out = parts.flatMap((part) => textViolations(part, options));
  out.push(
    ...publishAtViolations(options, draft.scheduledAt, Date.now()),
    ...thumbnailViolations(options, kindOf),
    ...firstCommentPrivacyViolations(draft, options),
  );
  if (!typeAllowed) return out;
  const label = draft.postType === 'short' ? 'A YouTube Short' : 'A YouTube video';
  out.push(
    ...checkSingleMediaPost(
      draft,
      parts,
      { min: 1, max: YOUTUBE_VIDEOS_PER_POST, kinds: ['video'], label },
      kindOf,
    ),
  );
  return out;
};

function textViolations(part: Part, options: YouTubeOptions): RuleViolation[] {
  const { title, description } = youtubeTitleAndDescription(part.text, options);
  const out: RuleViolation[] = [];
  const titleLength = codePointLength(title);
  if (isBlank(title)) {
    out.push(
      violation(
        part.textField,
        'TEXT_REQUIRED',
        'A YouTube upload needs a title: the first line of the text, or platformOptions.youtube.title.',
      ),
    );
  } else if (titleLength > YOUTUBE_MAX_TITLE) {
    out.push(
      violation(
        part.textField,
        'TEXT_TOO_LONG',
        `The title (the first line) is ${titleLength} characters; the limit is ${YOUTUBE_MAX_TITLE}.`,
        YOUTUBE_MAX_TITLE,
      ),
    );
  }
  if (ANGLE_BRACKETS.test(title)) {
    out.push(
      violation(part.textField, 'INVALID_CHARACTERS', 'The title (the first line) may not contain < or >.'),
    );
  }
  const descriptionBytes = utf8ByteLength(description);
  if (descriptionBytes > YOUTUBE_MAX_DESCRIPTION_BYTES) {
    out.push(
      violation(
        part.textField,
        'TEXT_TOO_LONG',
        `The description (after the first line) is ${descriptionBytes} bytes in UTF-8; the limit is ${YOUTUBE_MAX_DESCRIPTION_BYTES}.`,
        YOUTUBE_MAX_DESCRIPTION_BYTES,
      ),
    );
  }
  if (ANGLE_BRACKETS.test(description)) {
    out.push(
      violation(
        part.textField,
        'INVALID_CHARACTERS',
        'The description (after the first line) may not contain < or >.',
      ),
    );
  }
  return out;
}

/**
 * YouTube: 12 hours for a verified channel (15 minutes until it is verified, which only YouTube
 * knows); a Short at most 3 minutes (support.google.com/youtube/answer/15424877).
 */
const YOUTUBE_VIDEO: DurationLimit = { maxSeconds: 12 * 60 * 60, label: 'A YouTube video' };
const YOUTUBE_SHORT: DurationLimit = { maxSeconds: 3 * 60, label: 'A YouTube Short' };

export const youtubeVideoDurations: VideoDurations = { video: YOUTUBE_VIDEO, short: YOUTUBE_SHORT };

/** YouTube's content rules, as its definition holds them. */
export const youtubeRules: NetworkRules<YouTubeOptions> = {
  check: checkYouTube,
  videoDurations: youtubeVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
