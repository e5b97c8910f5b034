import { PLATFORM_OPTION_NOT_ALLOWED } from '../../domain/network-options.js';
import {
  checkTextLength,
  type DurationLimit,
  type NetworkRules,
  type Part,
  type PlatformCheck,
  type VideoDurations,
  violation,
} from '../../domain/platform-rules/helpers.js';
import {
  checkCarousel,
  checkPartMedia,
  checkSingleMediaPost,
  checkTextPost,
  checkThread,
  type MediaRule,
} from '../../domain/platform-rules/shapes.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import {
  THREADS_CAROUSEL_MAX_ITEMS,
  THREADS_CAROUSEL_MIN_ITEMS,
  THREADS_MAX_LINKS,
  THREADS_MAX_TEXT,
  THREADS_MAX_VIDEO_SECONDS,
  THREADS_THREAD_MAX_ITEMS,
  THREADS_THREAD_MIN_ITEMS,
} from './limits.js';
import type { ThreadsOptions } from './options-schema.js';
import { distinctLinks, threadsTextLength } from './text-length.js';

const LABEL = {
  text: 'A Threads text post',
  image: 'A Threads image post',
  video: 'A Threads video post',
  carousel: 'A Threads carousel',
  thread: 'A Threads thread',
};

const THREAD_POST_MEDIA: MediaRule = {
  min: 0,
  max: THREADS_CAROUSEL_MAX_ITEMS,
  kinds: ['image', 'video'],
  label: 'A post of a Threads thread',
};

export const checkThreads: PlatformCheck<ThreadsOptions> = ({
  draft,
  parts,
  kindOf,
  typeAllowed,
  options,
}) => {
  const link = options?.linkAttachment ?? draft.link?.url;
  const out = parts.flatMap((part, index) =>
    textViolations(part, draft.postType === 'text' || index === 0 ? link : undefined),
  );
  if (options?.linkAttachment && draft.link) {
    // Two link cards for one post: which one the caller meant is theirs to say.
    out.push({
      field: 'platformOptions.threads.linkAttachment',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: 'Give the link card as the post’s link or as linkAttachment, not both.',
    });
  }
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
          { min: 1, max: 1, kinds: ['image'], label: LABEL.image },
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
    case 'carousel':
      out.push(
        ...checkCarousel(
          draft,
          parts,
          {
            min: THREADS_CAROUSEL_MIN_ITEMS,
            max: THREADS_CAROUSEL_MAX_ITEMS,
            kinds: ['image', 'video'],
            label: LABEL.carousel,
          },
          kindOf,
        ),
      );
      break;
    case 'thread':
      // Each post of a thread is a Threads post of its own, published as a reply to the one before:
      // text alone, one image or video, or 2 to 20 media (a carousel).
      out.push(
        ...checkThread(draft.content, parts, {
          min: THREADS_THREAD_MIN_ITEMS,
          max: THREADS_THREAD_MAX_ITEMS,
          label: LABEL.thread,
          postMedia: (part) => checkPartMedia(part, THREAD_POST_MEDIA, kindOf),
        }),
      );
      break;
    default:
      break;
  }
  return out;
};

function textViolations(part: Part, linkAttachment: string | undefined): RuleViolation[] {
  const out = checkTextLength(
    part,
    threadsTextLength(part.text),
    THREADS_MAX_TEXT,
    'The text',
    'characters (an emoji counts its UTF-8 bytes)',
  );
  const links = distinctLinks(part.text, linkAttachment);
  if (links > THREADS_MAX_LINKS) {
    out.push(
      violation(
        part.textField,
        'CONTENT_SHAPE',
        `The post has ${links} distinct links; Threads allows ${THREADS_MAX_LINKS}.`,
        THREADS_MAX_LINKS,
      ),
    );
  }
  return out;
}

/** threads.md §6: a video runs more than 0 s and at most 5 minutes, wherever it is. */
const THREADS_VIDEO: DurationLimit = { maxSeconds: THREADS_MAX_VIDEO_SECONDS, label: 'A video on Threads' };

export const threadsVideoDurations: VideoDurations = {
  video: THREADS_VIDEO,
  carousel: THREADS_VIDEO,
  thread: THREADS_VIDEO,
};

/** Threads' content rules, as its definition holds them. */
export const threadsRules: NetworkRules<ThreadsOptions> = {
  check: checkThreads,
  videoDurations: threadsVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
