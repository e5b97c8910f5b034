import { PLATFORM_OPTION_NOT_ALLOWED } from '../../domain/network-options.js';
import {
  checkTextLength,
  codePointLength,
  type DurationLimit,
  type NetworkRules,
  type Part,
  type PlatformCheck,
  type VideoDurations,
} from '../../domain/platform-rules/helpers.js';
import {
  checkCarousel,
  checkSingleMediaPost,
  checkTextPost,
  type MediaRule,
} from '../../domain/platform-rules/shapes.js';
import type { LinkShape } from '../../domain/post-shape.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { LINKEDIN_ARTICLE_DESCRIPTION_MAX, LINKEDIN_ARTICLE_TITLE_MAX } from './limits.js';
import type { LinkedInOptions } from './options-schema.js';

/**
 * networks/linkedin.md §2 "Posts API": `commentary` max 3000 characters — the widely used figure,
 * not found verbatim in the official text, so it stays our default. Counted on the text as sent;
 * the connector's backslash-escaping of reserved characters is not counted.
 */
export const LINKEDIN_MAX_COMMENTARY = 3000;
/** networks/linkedin.md §2: single image, video and document posts carry one `content.media`. */
export const LINKEDIN_MEDIA_PER_POST = 1;
/** networks/linkedin.md §2 "MultiImage: 2–20 images" (our `carousel`; real carousels are sponsored-only). */
export const LINKEDIN_MULTI_IMAGE_MIN = 2;
export const LINKEDIN_MULTI_IMAGE_MAX = 20;

const SINGLE_MEDIA: Readonly<Record<'image' | 'video' | 'document', MediaRule>> = {
  image: { min: 1, max: LINKEDIN_MEDIA_PER_POST, kinds: ['image'], label: 'A LinkedIn image post' },
  video: { min: 1, max: LINKEDIN_MEDIA_PER_POST, kinds: ['video'], label: 'A LinkedIn video post' },
  document: { min: 1, max: LINKEDIN_MEDIA_PER_POST, kinds: ['document'], label: 'A LinkedIn document post' },
};
const TEXT_POST = 'A LinkedIn text post';

export const checkLinkedIn: PlatformCheck<LinkedInOptions> = ({
  draft,
  options,
  parts,
  kindOf,
  typeAllowed,
}) => {
  const out = parts.flatMap(textViolations);
  out.push(...pollWithLink(options, draft.link !== undefined), ...articleTextViolations(draft.link));
  if (!typeAllowed) return out;
  switch (draft.postType) {
    case 'text': {
      // A text post is nothing but its commentary, unless it carries a poll: the question then
      // says what the post is, and LinkedIn takes the poll with no commentary.
      const checks = checkTextPost(draft, parts, TEXT_POST, kindOf);
      out.push(...(options?.poll ? checks.filter((item) => item.code !== 'TEXT_REQUIRED') : checks));
      break;
    }
    case 'image':
    case 'video':
    case 'document': {
      out.push(...checkSingleMediaPost(draft, parts, SINGLE_MEDIA[draft.postType], kindOf));
      break;
    }
    case 'carousel':
      out.push(
        ...checkCarousel(
          draft,
          parts,
          {
            min: LINKEDIN_MULTI_IMAGE_MIN,
            max: LINKEDIN_MULTI_IMAGE_MAX,
            kinds: ['image'],
            label: 'A LinkedIn carousel (MultiImage)',
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

/**
 * A poll and an article (the post's `link`) are each the post's one `content` (Posts API): both
 * cannot be sent. The options' own check (options-schema.ts) refuses a poll on a media post.
 */
function pollWithLink(options: LinkedInOptions | undefined, hasLink: boolean): RuleViolation[] {
  if (!options?.poll || !hasLink) return [];
  return [
    {
      field: 'platformOptions.linkedin.poll',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message:
        "LinkedIn takes a poll or a link card, not both (each is the post's one content): drop the link or the poll.",
    },
  ];
}

/** An article card's title and description within LinkedIn's limits (limits.ts). */
function articleTextViolations(link: LinkShape | undefined): RuleViolation[] {
  const out: RuleViolation[] = [];
  const limits = [
    ['title', LINKEDIN_ARTICLE_TITLE_MAX],
    ['description', LINKEDIN_ARTICLE_DESCRIPTION_MAX],
  ] as const;
  for (const [field, max] of limits) {
    const length = codePointLength(link?.[field] ?? '');
    if (length > max) {
      out.push({
        field: `link.${field}`,
        code: 'TEXT_TOO_LONG',
        message: `LinkedIn's link card ${field} is ${length} characters; the limit is ${max}.`,
        limit: max,
      });
    }
  }
  return out;
}

function textViolations(part: Part) {
  return checkTextLength(
    part,
    codePointLength(part.text),
    LINKEDIN_MAX_COMMENTARY,
    'The commentary',
    'characters',
  );
}

/**
 * LinkedIn: 3 s to 30 minutes. LinkedIn's video specifications (business.linkedin.com, video ads
 * specs, the figure LinkedIn's organic video help repeats); the Videos API page states no duration.
 */
const LINKEDIN_VIDEO: DurationLimit = { minSeconds: 3, maxSeconds: 30 * 60, label: 'A LinkedIn video' };

export const linkedInVideoDurations: VideoDurations = { video: LINKEDIN_VIDEO };

/** LinkedIn's content rules, as its definition holds them. */
export const linkedInRules: NetworkRules<LinkedInOptions> = {
  check: checkLinkedIn,
  videoDurations: linkedInVideoDurations,
  // LinkedIn's document posts (networks/linkedin.md §2).
  takesDocuments: true,
  takesUserTags: false,
};
