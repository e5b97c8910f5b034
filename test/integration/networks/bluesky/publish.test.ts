import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_BLUESKY_FRIEND } from '../../../../infra/fake-networks/bluesky/index.js';
import type { PublishOutcome } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import {
  aPost,
  type BlueskyWorld,
  connect,
  publishRequest,
  startWorld,
  storedMedia,
  USER,
} from './bluesky-world.js';

const published = (outcome: PublishOutcome) => {
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return outcome;
};

/** Every post type Bluesky takes, published by the connector to its fake over real HTTP. */
describe('publishing to Bluesky', () => {
  let world: BlueskyWorld;
  let tokens: TokenSet;
  beforeAll(async () => {
    world = await startWorld();
    tokens = await connect(world);
  });
  afterAll(async () => {
    await world?.stop();
  });

  const publish = (post: ReturnType<typeof aPost>, extra: Parameters<typeof publishRequest>[3] = {}) =>
    world.network.connector.publish(publishRequest(world, post, tokens, extra));

  it('publishes text with facets: links, a mention resolved to its DID, hashtags, with UTF-8 byte offsets', async () => {
    const text =
      'Café ☕ news at https://example.com/a?b=1, thanks @friend.bsky.social and @nobody.example.org #atproto!';
    const post = aPost(text);
    const outcome = published(await publish(post));
    const record = world.fake.control.posts().at(-1);
    expect(outcome.platformPostId).toBe(record?.uri);
    expect(record?.uri).toMatch(
      new RegExp(`^at://${USER.did}/app.bsky.feed.post/[234567a-j][234567a-z]{12}$`),
    );
    expect(outcome.platformPostUrl).toBe(`https://bsky.app/profile/${USER.did}/post/${record?.rkey}`);
    const bytes = Buffer.from(text, 'utf8');
    const facets = (record?.value.facets ?? []) as {
      index: { byteStart: number; byteEnd: number };
      features: Record<string, string>[];
    }[];
    const spans = facets.map((facet) => [
      bytes.subarray(facet.index.byteStart, facet.index.byteEnd).toString('utf8'),
      facet.features[0],
    ]);
    expect(spans).toEqual([
      [
        'https://example.com/a?b=1',
        { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/a?b=1' },
      ],
      ['@friend.bsky.social', { $type: 'app.bsky.richtext.facet#mention', did: FAKE_BLUESKY_FRIEND.did }],
      // @nobody.example.org does not resolve: it stays text.
      ['#atproto', { $type: 'app.bsky.richtext.facet#tag', tag: 'atproto' }],
    ]);
    expect(record?.value).toMatchObject({ $type: 'app.bsky.feed.post', text });
  });

  it('publishes up to four images with their alt text as blobs of the account', async () => {
    const media = [1, 2].map((n) => storedMedia(world.bytes, 'image/jpeg', 50_000, `Photo ${n}`));
    const post = aPost('Two photos', { postType: 'image', media: media.map((m) => m.ref) });
    published(await publish(post, { media: media.map((m) => m.delivery) }));
    const embed = world.fake.control.posts().at(-1)?.value.embed as {
      $type: string;
      images: { alt: string; image: { mimeType: string; size: number } }[];
    };
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images.map((image) => [image.alt, image.image.mimeType, image.image.size])).toEqual([
      ['Photo 1', 'image/jpeg', 50_000],
      ['Photo 2', 'image/jpeg', 50_000],
    ]);
  });

  it('refuses an image over 1,000,000 bytes before uploading it', async () => {
    const big = storedMedia(world.bytes, 'image/png', 1_000_001, 'Big');
    const before = world.fake.control.seen().length;
    const outcome = await publish(aPost('Big', { postType: 'image', media: [big.ref] }), {
      media: [big.delivery],
    });
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_TOO_LARGE' });
    expect(
      world.fake.control
        .seen()
        .slice(before)
        .map((call) => call.endpoint),
    ).not.toContain('uploadBlob');
  });

  it('keeps an uploaded image for a retry a few minutes later, and uploads it again once the PDS may have dropped it', async () => {
    const image = storedMedia(world.bytes, 'image/jpeg', 4000, 'Kept');
    const post = aPost('Kept image', { postType: 'image', media: [image.ref] });
    world.fake.control.inject('createRecord', {
      kind: 'reply',
      reply: { status: 400, json: { error: 'InvalidSwap' } },
    });
    const first = await publish(post, { media: [image.delivery] });
    expect(first).toMatchObject({ kind: 'failed' });
    if (first.kind !== 'failed') return;
    const uploads = () => world.fake.control.seen().filter((call) => call.endpoint === 'uploadBlob').length;
    const before = uploads();
    // A retry soon after references the blob it has.
    world.fake.control.inject('createRecord', {
      kind: 'reply',
      reply: { status: 400, json: { error: 'InvalidSwap' } },
    });
    const second = await publish(post, {
      media: [image.delivery],
      progress: first.progress ?? {},
      attempt: 2,
    });
    expect(uploads()).toBe(before);
    // Six minutes on, the blob may be gone (unreferenced blobs last minutes): it is uploaded again.
    const progress = structuredClone(second.kind === 'failed' ? (second.progress ?? {}) : {}) as {
      blobs: Record<string, { at: number }>;
    };
    for (const entry of Object.values(progress.blobs)) entry.at -= 6 * 60_000;
    published(await publish(post, { media: [image.delivery], progress, attempt: 3 }));
    expect(uploads()).toBe(before + 1);
  });

  it('the fake, as the PDS, refuses a blob no record referenced in time', async () => {
    const short = await startWorld({ blobLifetimeMs: 50 });
    try {
      const own = await connect(short, 'st_blob');
      const image = storedMedia(short.bytes, 'image/png', 1000);
      const post = aPost('Late', { postType: 'image', media: [image.ref] });
      short.fake.control.inject('createRecord', {
        kind: 'reply',
        reply: { status: 503, json: { error: 'Unavailable' } },
      });
      const first = await short.network.connector.publish(
        publishRequest(short, post, own, { media: [image.delivery] }),
      );
      if (first.kind !== 'failed') throw new Error('expected a failure');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const late = await short.network.connector.publish(
        publishRequest(short, post, own, {
          media: [image.delivery],
          progress: first.progress ?? {},
          attempt: 2,
        }),
      );
      expect(late).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'PLATFORM_REJECTED' });
    } finally {
      await short.stop();
    }
  });

  it('publishes a video through the video service: pending while the job runs, then the post with the blob', async () => {
    const video = storedMedia(world.bytes, 'video/mp4', 300_000, 'A clip');
    const post = aPost('A clip', { postType: 'video', media: [video.ref] });
    const first = await publish(post, { media: [video.delivery] });
    expect(first).toMatchObject({ kind: 'pending', stage: 'media_processing' });
    if (first.kind !== 'pending') return;
    const second = await publish(post, { media: [video.delivery], progress: first.progress, attempt: 2 });
    const third =
      second.kind === 'pending'
        ? await publish(post, { media: [video.delivery], progress: second.progress, attempt: 3 })
        : second;
    published(third);
    const embed = world.fake.control.posts().at(-1)?.value.embed as {
      $type: string;
      alt: string;
      video: { mimeType: string; size: number };
    };
    expect(embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      alt: 'A clip',
      video: { mimeType: 'video/mp4', size: 300_000 },
    });
    // The file was streamed to the video service once, never uploaded again on the later attempts.
    expect(world.fake.control.seen().filter((call) => call.endpoint === 'uploadVideo')).toHaveLength(1);
  });

  it('fails a video the video service could not process, for good', async () => {
    world.fake.control.failVideoJobs('encoding_failure');
    try {
      const video = storedMedia(world.bytes, 'video/mp4', 1000);
      const post = aPost('Broken', { postType: 'video', media: [video.ref] });
      const first = await publish(post, { media: [video.delivery] });
      if (first.kind !== 'pending') throw new Error('expected pending');
      const second = await publish(post, { media: [video.delivery], progress: first.progress, attempt: 2 });
      expect(second).toMatchObject({
        kind: 'failed',
        failure: 'permanent',
        code: 'MEDIA_PROCESSING_FAILED',
        platformRawCode: 'encoding_failure',
      });
    } finally {
      world.fake.control.failVideoJobs(undefined);
    }
  });

  it('publishes a thread as replies chained to the first post (root) and the previous one (parent)', async () => {
    const image = storedMedia(world.bytes, 'image/webp', 2000, '');
    const post = aPost([{ text: 'One' }, { text: 'Two', media: [image.ref] }, { text: 'Three' }]);
    const outcome = published(await publish(post, { media: [image.delivery] }));
    const [one, two, three] = world.fake.control.posts().slice(-3);
    expect(outcome.platformPostId).toBe(one?.uri);
    expect(one?.value.reply).toBeUndefined();
    expect(two?.value.reply).toEqual({
      root: { uri: one?.uri, cid: one?.cid },
      parent: { uri: one?.uri, cid: one?.cid },
    });
    expect(three?.value.reply).toEqual({
      root: { uri: one?.uri, cid: one?.cid },
      parent: { uri: two?.uri, cid: two?.cid },
    });
    // An image's alt text is required by the lexicon and may be empty.
    expect(two?.value.embed).toMatchObject({ $type: 'app.bsky.embed.images', images: [{ alt: '' }] });
  });

  it('attaches the link card given in platformOptions, and the languages', async () => {
    const card = { uri: 'https://example.com/story', title: 'A story', description: 'What happened' };
    const post = aPost('Read https://example.com/story', {
      platformOptions: { bluesky: { linkCard: card, langs: ['en'] } },
    });
    published(await publish(post));
    const record = world.fake.control.posts().at(-1);
    expect(record?.value.embed).toEqual({ $type: 'app.bsky.embed.external', external: card });
    expect(record?.value.langs).toEqual(['en']);
  });
});
