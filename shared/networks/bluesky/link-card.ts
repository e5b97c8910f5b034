import type { LinkShape } from '../../domain/post-shape.js';
import type { DeliveryMedia, LinkPreviewPage, LinkPreviewReader } from '../../ports/connector.js';
import { BLUESKY_MAX_IMAGE_BYTES } from './limits.js';
import { type MediaContext, uploadImage } from './media.js';
import { type Blob, blobSchema } from './progress.js';
import { callXrpc } from './xrpc.js';

/** Lexicon `app.bsky.embed.external#external`: title and description are plain strings, kept short. */
const MAX_TITLE = 300;
const MAX_DESCRIPTION = 1000;

/** Where a card's parts come from: the post's `link` first, then the page's Open Graph tags. */
export interface LinkCardSources {
  link: LinkShape;
  /** Reads the page (the lead's SSRF-safe fetcher); absent: only what the post gives. */
  reader?: LinkPreviewReader;
  /** The post's `link.thumbnail`, resolved by the worker. */
  thumbnail?: DeliveryMedia;
  signal: AbortSignal;
}

/**
 * The card Bluesky shows for a link, which we build (research bluesky.md §2d, first-comment-and-
 * link-previews.md §2.2: the server reads no page): `app.bsky.embed.external` with the post's own
 * title, description and thumbnail first, else the page's; the title falls back to the URL's host,
 * the description to "". The thumbnail (≤ 1,000,000 bytes, an image) is uploaded as a blob. Nothing
 * here fails the post: a page or image that cannot be read, or a thumbnail the PDS refuses, leaves
 * that part out.
 */
export async function linkCardEmbed(
  context: MediaContext,
  sources: LinkCardSources,
): Promise<Record<string, unknown>> {
  const { link } = sources;
  const needsPage = link.title === undefined || link.description === undefined || !sources.thumbnail;
  const page = needsPage ? await readPage(sources) : undefined;
  const thumb = await thumbnailBlob(context, sources, page);
  return {
    $type: 'app.bsky.embed.external',
    external: {
      uri: link.url,
      title: (link.title ?? page?.title ?? hostOf(link.url)).slice(0, MAX_TITLE),
      description: (link.description ?? page?.description ?? '').slice(0, MAX_DESCRIPTION),
      ...(thumb && { thumb }),
    },
  };
}

async function readPage(sources: LinkCardSources): Promise<LinkPreviewPage | undefined> {
  try {
    return await sources.reader?.readPage(sources.link.url, sources.signal);
  } catch {
    return undefined;
  }
}

async function thumbnailBlob(
  context: MediaContext,
  sources: LinkCardSources,
  page: LinkPreviewPage | undefined,
): Promise<Blob | undefined> {
  try {
    if (sources.thumbnail?.stored?.mimeType.startsWith('image/')) {
      const uploaded = await uploadImage(context, sources.thumbnail);
      return 'kind' in uploaded ? undefined : uploaded;
    }
    if (sources.thumbnail || !page?.imageUrl || !sources.reader) return undefined;
    const image = await sources.reader.readImage(page.imageUrl, BLUESKY_MAX_IMAGE_BYTES, sources.signal);
    if (!image?.contentType.startsWith('image/') || image.bytes.byteLength > BLUESKY_MAX_IMAGE_BYTES)
      return undefined;
    const answer = await callXrpc(context.pds, {
      method: 'POST',
      nsid: 'com.atproto.repo.uploadBlob',
      bytes: { body: image.bytes, contentType: image.contentType, length: image.bytes.byteLength },
    });
    return answer.ok
      ? blobSchema.safeParse((answer.body as { blob?: unknown } | undefined)?.blob).data
      : undefined;
  } catch {
    // A thumbnail is never worth the post: no answer, no bytes, no thumbnail.
    return undefined;
  }
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : url;
}
