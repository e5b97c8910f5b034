import { Parser } from 'htmlparser2';
import type { LinkPreviewPage, LinkPreviewReader } from '../../ports/connector.js';
import { makePublicOnlyFetch, type PublicOnlyFetchOptions } from './public-fetch.js';

/** The most of a page read for its card: Open Graph tags sit in the head, near the top. */
export const LINK_PAGE_MAX_BYTES = 512 * 1024;
/** A page (or image) that takes longer gives no card: the post goes on without it. */
export const LINK_PREVIEW_TIMEOUT_MS = 5000;
/** Redirects followed (each hop through the same public-only fetch). */
const MAX_REDIRECTS = 3;

/**
 * Reads link cards for the networks whose cards we build (LinkedIn's article, Bluesky's external
 * embed; docs/networks.md "Link previews"): the page's Open Graph tags (its <title> and description
 * as fallbacks), and the card's image. The URL is a caller's, so every request goes
 * through the public-only fetch (public addresses only, pinned, no redirect followed blindly: each
 * hop is vetted again), with limits on size and time. Never throws: a page that cannot be read
 * gives no card, and the post goes on with what it has.
 */
export function makeLinkPreviewReader(options: PublicOnlyFetchOptions = {}): LinkPreviewReader {
  const fetchPublic = makePublicOnlyFetch(options);

  /** The answer at the end of at most MAX_REDIRECTS hops, with the URL it came from. */
  const get = async (
    url: string,
    accept: string,
    signal: AbortSignal,
  ): Promise<{ response: Response; url: string } | undefined> => {
    let target = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await fetchPublic(target, { headers: { accept }, redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        if (response.ok) return { response, url: target };
        await response.body?.cancel();
        return undefined;
      }
      await response.body?.cancel();
      target = new URL(location, target).toString();
    }
    return undefined;
  };

  return {
    async readPage(url, signal) {
      const within = AbortSignal.any([signal, AbortSignal.timeout(LINK_PREVIEW_TIMEOUT_MS)]);
      try {
        const page = await get(url, 'text/html,application/xhtml+xml', within);
        if (!page || !/html/i.test(page.response.headers.get('content-type') ?? '')) {
          await page?.response.body?.cancel();
          return undefined;
        }
        const html = new TextDecoder().decode(await readAtMost(page.response, LINK_PAGE_MAX_BYTES));
        return cardOf(html, page.url);
      } catch {
        return undefined;
      }
    },
    async readImage(url, maxBytes, signal) {
      const within = AbortSignal.any([signal, AbortSignal.timeout(LINK_PREVIEW_TIMEOUT_MS)]);
      try {
        const response = (await get(url, 'image/*', within))?.response;
        const contentType = response?.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
        if (!response || !contentType.startsWith('image/')) {
          await response?.body?.cancel();
          return undefined;
        }
        const bytes = await readAtMost(response, maxBytes + 1);
        return bytes.length > maxBytes ? undefined : { bytes, contentType };
      } catch {
        return undefined;
      }
    },
  };
}

/** The body's first `limit` bytes; the rest is never read. */
async function readAtMost(response: Response, limit: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel();
  const all = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, all.length - offset);
    all.set(part, offset);
    offset += part.length;
    if (offset >= all.length) break;
  }
  return all;
}

/**
 * A page's card from its head: og:title, og:description and og:image, else <title> and
 * <meta name="description">. The image is made absolute against the page's URL; an image that is
 * not http(s) is left out.
 */
export function cardOf(html: string, pageUrl: string): LinkPreviewPage | undefined {
  const meta = new Map<string, string>();
  let title = '';
  let inTitle = false;
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (done) return;
        if (name === 'title') inTitle = true;
        if (name !== 'meta') return;
        const key = (attributes.property ?? attributes.name ?? '').toLowerCase();
        const content = attributes.content;
        if (key && content !== undefined && !meta.has(key)) meta.set(key, content.trim());
      },
      ontext(text) {
        if (inTitle && !done) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'head') done = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const first = (...keys: string[]) => keys.map((key) => meta.get(key)).find((value) => value);
  const card: LinkPreviewPage = {};
  const cardTitle = first('og:title') ?? (title.trim() || undefined);
  const description = first('og:description', 'description');
  const image = absoluteImage(first('og:image:secure_url', 'og:image', 'og:image:url'), pageUrl);
  if (cardTitle) card.title = cardTitle;
  if (description) card.description = description;
  if (image) card.imageUrl = image;
  return Object.keys(card).length > 0 ? card : undefined;
}

function absoluteImage(value: string | undefined, pageUrl: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, pageUrl);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
