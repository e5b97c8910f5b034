import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkPreviewPage, LinkPreviewReader } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import {
  aPost,
  type BlueskyWorld,
  connect,
  publishRequest,
  startWorld,
  storedMedia,
} from './bluesky-world.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** A link-card reader as the lead's adapter behaves, in memory: pages and images by URL, every call kept. */
function readerOf(
  pages: Record<string, LinkPreviewPage>,
  images: Record<string, { bytes: Uint8Array; contentType: string }> = {},
): LinkPreviewReader & { pageReads: string[]; imageReads: { url: string; maxBytes: number }[] } {
  const pageReads: string[] = [];
  const imageReads: { url: string; maxBytes: number }[] = [];
  return {
    pageReads,
    imageReads,
    async readPage(url) {
      pageReads.push(url);
      return pages[url];
    },
    async readImage(url, maxBytes) {
      imageReads.push({ url, maxBytes });
      const image = images[url];
      return image && image.bytes.byteLength <= maxBytes ? image : undefined;
    },
  };
}

type External = {
  uri: string;
  title: string;
  description: string;
  thumb?: { mimeType: string; size: number };
};

/** Bluesky's link card (app.bsky.embed.external), built by the connector, against the fake PDS. */
describe('Bluesky: the link card we build', () => {
  let world: BlueskyWorld;
  let tokens: TokenSet;
  beforeAll(async () => {
    world = await startWorld();
    tokens = await connect(world);
  });
  afterAll(async () => {
    await world?.stop();
  });
  const lastExternal = () => {
    const embed = world.fake.control.posts().at(-1)?.value.embed as
      | { $type: string; external: External }
      | undefined;
    expect(embed?.$type).toBe('app.bsky.embed.external');
    return embed?.external;
  };

  it("reads the page's Open Graph tags for what the post does not give, and uploads og:image (≤ 1,000,000 bytes) as the thumbnail", async () => {
    const reader = readerOf(
      {
        'https://example.com/a': {
          title: 'Page title',
          description: 'Page description',
          imageUrl: 'https://example.com/a.png',
        },
      },
      { 'https://example.com/a.png': { bytes: PNG, contentType: 'image/png' } },
    );
    const post = aPost('Read this', { link: { url: 'https://example.com/a', title: 'My own title' } });
    const outcome = await world.network.connector.publish(
      publishRequest(world, post, tokens, { linkPreview: reader }),
    );
    expect(outcome.kind).toBe('published');
    expect(lastExternal()).toEqual({
      uri: 'https://example.com/a',
      title: 'My own title',
      description: 'Page description',
      thumb: expect.objectContaining({ $type: 'blob', mimeType: 'image/png', size: PNG.byteLength }),
    });
    expect(reader.imageReads).toEqual([{ url: 'https://example.com/a.png', maxBytes: 1_000_000 }]);
  });

  it("uses the post's own thumbnail, uploaded as a blob, and reads no page when the post gives everything", async () => {
    const thumbnail = storedMedia(world.bytes, 'image/jpeg', 5000);
    const reader = readerOf({});
    const post = aPost('All given', {
      link: { url: 'https://example.com/b', title: 'T', description: 'D', thumbnail: thumbnail.ref },
    });
    await world.network.connector.publish(
      publishRequest(world, post, tokens, { linkPreview: reader, linkThumbnail: thumbnail.delivery }),
    );
    expect(lastExternal()).toEqual({
      uri: 'https://example.com/b',
      title: 'T',
      description: 'D',
      thumb: expect.objectContaining({ mimeType: 'image/jpeg', size: 5000 }),
    });
    expect(reader.pageReads).toEqual([]);
  });

  it("a page that cannot be read never fails the post: the title falls back to the URL's host, no thumbnail", async () => {
    const failing: LinkPreviewReader = {
      readPage: async () => {
        throw new Error('connection refused');
      },
      readImage: async () => undefined,
    };
    const post = aPost('Unreadable page', { link: { url: 'https://unreadable.example.org/x' } });
    const outcome = await world.network.connector.publish(
      publishRequest(world, post, tokens, { linkPreview: failing }),
    );
    expect(outcome.kind).toBe('published');
    expect(lastExternal()).toEqual({
      uri: 'https://unreadable.example.org/x',
      title: 'unreadable.example.org',
      description: '',
    });
  });

  it('an og:image that is too large or not an image is left out; the card and the post go on', async () => {
    const reader = readerOf(
      {
        'https://example.com/big': { title: 'Big', imageUrl: 'https://example.com/big.png' },
        'https://example.com/html': { title: 'Html', imageUrl: 'https://example.com/page.html' },
      },
      {
        'https://example.com/big.png': { bytes: new Uint8Array(1_000_001), contentType: 'image/png' },
        'https://example.com/page.html': { bytes: PNG, contentType: 'text/html' },
      },
    );
    for (const url of ['https://example.com/big', 'https://example.com/html']) {
      const post = aPost(`Card for ${url}`, { link: { url } });
      const outcome = await world.network.connector.publish(
        publishRequest(world, post, tokens, { linkPreview: reader }),
      );
      expect(outcome.kind).toBe('published');
      expect(lastExternal()?.thumb).toBeUndefined();
    }
  });

  it('gives the URL in the text its link facet beside the card, and builds a card without any reader', async () => {
    const text = 'New post: https://example.com/c';
    const post = aPost(text, { link: { url: 'https://example.com/c' } });
    await world.network.connector.publish(publishRequest(world, post, tokens));
    const record = world.fake.control.posts().at(-1);
    expect(record?.value.facets).toEqual([
      {
        index: { byteStart: text.indexOf('https'), byteEnd: Buffer.byteLength(text) },
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/c' }],
      },
    ]);
    expect(lastExternal()).toEqual({ uri: 'https://example.com/c', title: 'example.com', description: '' });
  });

  it('keeps the older platformOptions.bluesky.linkCard working, sent as given', async () => {
    const card = { uri: 'https://example.com/old', title: 'Old form', description: 'As given' };
    const post = aPost('Older form', { platformOptions: { bluesky: { linkCard: card } } });
    await world.network.connector.publish(publishRequest(world, post, tokens, { linkPreview: readerOf({}) }));
    expect(lastExternal()).toEqual(card);
  });

  it('leaves out a thumbnail that is not an image (the lexicon takes image/* only), and the post goes on', async () => {
    const video = storedMedia(world.bytes, 'video/mp4', 3000);
    const post = aPost('Wrong thumbnail', {
      link: { url: 'https://example.com/v', title: 'V', description: 'V' },
    });
    const outcome = await world.network.connector.publish(
      publishRequest(world, post, tokens, { linkThumbnail: { ...video.delivery, kind: 'image' } }),
    );
    expect(outcome.kind).toBe('published');
    expect(lastExternal()).toEqual({ uri: 'https://example.com/v', title: 'V', description: 'V' });
  });
});
