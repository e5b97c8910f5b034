import type { LinkShape } from '../../domain/post-shape.js';
import type { PostWarning } from '../../domain/posts.js';
import type { DeliveryMedia, LinkPreviewPage, LinkPreviewReader } from '../../ports/connector.js';
import {
  LINKEDIN_ARTICLE_DESCRIPTION_MAX,
  LINKEDIN_ARTICLE_TITLE_MAX,
  LINKEDIN_THUMBNAIL_MAX_BYTES,
} from './limits.js';
import type { ArticleContent } from './post-body.js';

/** The warning a published article share carries when its thumbnail could not be used. */
export const LINKEDIN_THUMBNAIL_DROPPED = 'LINK_THUMBNAIL_DROPPED';

export interface ArticleInput {
  link: LinkShape;
  /** Reads the page's Open Graph card and its image; absent: only what the link gives. */
  reader?: LinkPreviewReader;
  /** The link's own thumbnail (`link.thumbnail`), resolved by the worker. */
  thumbnail?: DeliveryMedia;
  /** The thumbnail's URN an earlier attempt uploaded for this author: not uploaded again. */
  uploadedThumbnail?: string;
  /** Uploads through the Images API, owned by the post's author; each returns the image URN. */
  upload: {
    stored(media: DeliveryMedia & { kind: 'image' }): Promise<string>;
    bytes(bytes: Uint8Array): Promise<string>;
  };
  signal: AbortSignal;
}

export interface BuiltArticle {
  article: ArticleContent;
  /** The thumbnail uploaded (or reused), for the progress. */
  thumbnailUrn?: string;
  warnings: PostWarning[];
}

/**
 * The card of an article share (Posts API `content.article`). LinkedIn does not read the page
 * ("Article Post API does not support url scraping"): the card is what we send. The link's own
 * title, description and thumbnail win; what is missing comes from the page's Open Graph tags
 * (og:title, og:description, og:image); a title neither gives is the URL's host. A page that
 * cannot be read, or a thumbnail that cannot be read or uploaded, never fails the post: the card
 * goes without it, and the post says so in a warning.
 */
export async function buildArticle(input: ArticleInput): Promise<BuiltArticle> {
  const { link, reader, thumbnail, signal } = input;
  const wantsPage =
    reader !== undefined &&
    (link.title === undefined ||
      link.description === undefined ||
      (thumbnail === undefined && input.uploadedThumbnail === undefined));
  const page = wantsPage ? await readPage(reader, link.url, signal) : undefined;

  const title = link.title ?? clip(page?.title, LINKEDIN_ARTICLE_TITLE_MAX) ?? new URL(link.url).host;
  const description = link.description ?? clip(page?.description, LINKEDIN_ARTICLE_DESCRIPTION_MAX);

  let thumbnailUrn = input.uploadedThumbnail;
  let wanted = thumbnailUrn !== undefined;
  if (!thumbnailUrn && thumbnail) {
    wanted = true;
    const image = thumbnail.kind === 'image' ? { ...thumbnail, kind: 'image' as const } : undefined;
    if (image) thumbnailUrn = await dropOnFailure(() => input.upload.stored(image), signal);
  } else if (!thumbnailUrn && page?.imageUrl && reader) {
    wanted = true;
    const image = await reader
      .readImage(page.imageUrl, LINKEDIN_THUMBNAIL_MAX_BYTES, signal)
      .catch(() => undefined);
    if (image?.contentType.startsWith('image/')) {
      thumbnailUrn = await dropOnFailure(() => input.upload.bytes(image.bytes), signal);
    }
  }

  const article: ArticleContent = {
    source: link.url,
    title,
    ...(description !== undefined && { description }),
    ...(thumbnailUrn && { thumbnail: thumbnailUrn }),
    ...(thumbnailUrn && thumbnail?.alt && { thumbnailAltText: thumbnail.alt }),
  };
  const warnings: PostWarning[] =
    wanted && !thumbnailUrn
      ? [
          {
            code: LINKEDIN_THUMBNAIL_DROPPED,
            message:
              'The link card was published without its image: the image could not be read or LinkedIn did not take it.',
          },
        ]
      : [];
  return { article, ...(thumbnailUrn && { thumbnailUrn }), warnings };
}

async function readPage(
  reader: LinkPreviewReader,
  url: string,
  signal: AbortSignal,
): Promise<LinkPreviewPage | undefined> {
  return reader.readPage(url, signal).catch(() => undefined);
}

/**
 * The upload's URN, or undefined when it failed: the card goes without its image. When the
 * worker's time is up, nothing more can be sent: the failure is passed on (nothing was posted).
 */
async function dropOnFailure(
  upload: () => Promise<string>,
  signal: AbortSignal,
): Promise<string | undefined> {
  try {
    return await upload();
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}

/** A page's text, cut to LinkedIn's most (a page's own tags are not the caller's to shorten). */
function clip(text: string | undefined, max: number): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  const chars = [...trimmed];
  return chars.length <= max ? trimmed : `${chars.slice(0, max - 1).join('')}…`;
}
