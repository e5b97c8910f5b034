import { contentItems, type Post } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';
import { escapeLittleText } from './little-text.js';
import type { LinkedInPoll, LinkedInVisibility } from './options.js';
import { LINKEDIN_POLL_DURATIONS } from './options-schema.js';

/** One media item of the post, uploaded: its URN beside what the post says of it. */
export interface UploadedMedia {
  media: DeliveryMedia;
  urn: string;
}

/**
 * What the post's media make on LinkedIn (networks/linkedin.md §2): nothing (text), one image,
 * video or document (`content.media`), or 2–20 images (`content.multiImage`). Anything else (a
 * video beside an image) LinkedIn cannot publish as one post; the platform rules refuse it at
 * create, so here it only guards a post stored before them.
 */
export type ContentShape = 'text' | 'single' | 'multiImage' | 'unsupported';

export function contentShapeOf(media: readonly DeliveryMedia[]): ContentShape {
  if (media.length === 0) return 'text';
  if (media.length === 1) return 'single';
  return media.length <= 20 && media.every((item) => item.kind === 'image') ? 'multiImage' : 'unsupported';
}

/** The post's text, as LinkedIn's commentary: the first item's text for a carousel. */
export function commentaryOf(post: Post): string {
  return escapeLittleText(contentItems(post)[0]?.text ?? '');
}

function contentOf(uploaded: readonly UploadedMedia[]): Record<string, unknown> | undefined {
  const [first] = uploaded;
  if (!first) return undefined;
  if (uploaded.length > 1) {
    return {
      multiImage: {
        images: uploaded.map(({ media, urn }) => ({ id: urn, ...(media.alt && { altText: media.alt }) })),
      },
    };
  }
  const { media, urn } = first;
  if (media.kind === 'image') return { media: { id: urn, ...(media.alt && { altText: media.alt }) } };
  // A document post shows its title; the file's name is the best one the service has.
  if (media.kind === 'document') return { media: { id: urn, title: media.stored?.filename ?? 'Document' } };
  return { media: { id: urn } };
}

/**
 * An article share's card (Posts API `content.article`): LinkedIn does not read the page, so the
 * card is ours (article.ts builds it); `thumbnail` is an image URN of the author's.
 */
export interface ArticleContent {
  source: string;
  title: string;
  description?: string;
  thumbnail?: string;
  thumbnailAltText?: string;
}

/**
 * A poll as the Posts API takes it (`content.poll`): one vote per member, and the voters visible
 * to the author, the only settings LinkedIn supports ("MULTIPLE_VOTE" is announced for later,
 * hiding the voters is not supported).
 */
export function pollContent(poll: LinkedInPoll): Record<string, unknown> {
  return {
    poll: {
      question: poll.question,
      options: poll.options.map((text) => ({ text })),
      settings: {
        duration: LINKEDIN_POLL_DURATIONS[poll.duration],
        voteSelectionType: 'SINGLE_VOTE',
        isVoterVisibleToAuthor: true,
      },
    },
  };
}

/** The body of `POST /rest/posts`: an organic post, in the main feed, published at once. */
export function postBody(options: {
  post: Post;
  author: string;
  visibility: LinkedInVisibility;
  uploaded: readonly UploadedMedia[];
  /** Text posts only (the rules refuse them beside media, or together). */
  poll?: LinkedInPoll;
  article?: ArticleContent;
}): Record<string, unknown> {
  const content = options.poll
    ? pollContent(options.poll)
    : options.article
      ? { article: options.article }
      : contentOf(options.uploaded);
  return {
    author: options.author,
    commentary: commentaryOf(options.post),
    visibility: options.visibility,
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    lifecycleState: 'PUBLISHED',
    isReshareDisabledByAuthor: false,
    ...(content && { content }),
  };
}
