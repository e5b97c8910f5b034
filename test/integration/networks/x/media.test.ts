import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishOutcome } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import {
  connect,
  MemoryMediaBytes,
  publishRequest,
  startXWorld,
  storedMedia,
  type XWorld,
  xPost,
} from './x-fixture.js';

/** Small chunks so a small file still takes several APPENDs. */
const CHUNK = 64 * 1024;

const progressOf = (outcome: PublishOutcome) => (outcome.kind === 'published' ? undefined : outcome.progress);

describe('X connector: media through the chunked upload of the fake X', () => {
  let world: XWorld;
  let tokens: TokenSet;
  const bytes = new MemoryMediaBytes();
  beforeAll(async () => {
    world = await startXWorld({ chunkBytes: CHUNK });
    tokens = await connect(world);
  });
  afterAll(async () => {
    await world.fake.stop();
  });

  it('uploads an image in chunks read one range at a time, sets its alt text, and attaches it', async () => {
    const image = storedMedia(bytes, 'image/png', 3 * CHUNK + 100, 'A red square on white');
    const post = xPost('An image post', { postType: 'image', media: [image.ref] });
    const readsBefore = bytes.reads.length;

    const outcome = await world.connector.publish(
      publishRequest(post, tokens, { media: [image.delivery], bytes }),
    );

    const uploaded = world.fake.control.media().at(-1);
    expect(uploaded).toMatchObject({
      mediaType: 'image/png',
      category: 'tweet_image',
      totalBytes: 3 * CHUNK + 100,
      segments: [CHUNK, CHUNK, CHUNK, 100],
      sha256: image.sha256,
      processing: 'succeeded',
      altText: 'A red square on white',
    });
    const reads = bytes.reads.slice(readsBefore);
    expect(reads.map(({ start, end }) => [start, end])).toEqual([
      [0, CHUNK],
      [CHUNK, 2 * CHUNK],
      [2 * CHUNK, 3 * CHUNK],
      [3 * CHUNK, 3 * CHUNK + 100],
    ]);
    const tweet = world.fake.control.tweets().at(-1);
    expect(tweet?.mediaIds).toEqual([uploaded?.id]);
    expect(outcome).toMatchObject({ kind: 'published', platformPostId: tweet?.id });
  });

  it('attaches four images in the order of the post', async () => {
    const images = [1, 2, 3, 4].map((n) => storedMedia(bytes, 'image/jpeg', 1000 * n));
    const post = xPost('Four images', { postType: 'image', media: images.map((image) => image.ref) });

    await world.connector.publish(
      publishRequest(post, tokens, { media: images.map((image) => image.delivery), bytes }),
    );

    const uploads = world.fake.control.media().slice(-4);
    expect(uploads.map((upload) => upload.sha256)).toEqual(images.map((image) => image.sha256));
    expect(world.fake.control.tweets().at(-1)?.mediaIds).toEqual(uploads.map((upload) => upload.id));
  });

  it('answers pending while X processes a video, checks again from the progress, then posts it', async () => {
    world.fake.control.nextProcessing({ polls: 1, checkAfterSecs: 3 });
    const video = storedMedia(bytes, 'video/mp4', 2 * CHUNK + 1);
    const post = xPost('A video post', { postType: 'video', media: [video.ref] });
    const tweetsBefore = world.fake.control.tweets().length;

    const first = await world.connector.publish(
      publishRequest(post, tokens, { media: [video.delivery], bytes }),
    );

    const upload = world.fake.control.media().at(-1);
    expect(upload).toMatchObject({ category: 'tweet_video', processing: 'pending', sha256: video.sha256 });
    expect(first).toEqual({
      kind: 'pending',
      stage: 'media_processing',
      checkAfterSeconds: 3,
      progress: { posted: [], media: { '0': { id: upload?.id, stage: 'processing' } } },
    });

    const readsBefore = bytes.reads.length;
    const second = await world.connector.publish(
      publishRequest(post, tokens, {
        media: [video.delivery],
        bytes,
        attempt: 1,
        progress: progressOf(first),
      }),
    );
    expect(second).toMatchObject({ kind: 'pending', stage: 'media_processing', checkAfterSeconds: 3 });
    expect(world.fake.control.media().at(-1)?.processing).toBe('in_progress');

    const third = await world.connector.publish(
      publishRequest(post, tokens, {
        media: [video.delivery],
        bytes,
        attempt: 1,
        progress: progressOf(second),
      }),
    );

    expect(bytes.reads.length).toBe(readsBefore);
    expect(world.fake.control.media().filter((media) => media.sha256 === video.sha256)).toHaveLength(1);
    const tweets = world.fake.control.tweets().slice(tweetsBefore);
    expect(tweets).toHaveLength(1);
    expect(tweets[0]?.mediaIds).toEqual([upload?.id]);
    expect(third).toMatchObject({ kind: 'published', platformPostId: tweets[0]?.id });
  });

  it('fails for good, with nothing posted, when X cannot process the file', async () => {
    world.fake.control.nextProcessing({ polls: 0, outcome: 'failed' });
    const video = storedMedia(bytes, 'video/mp4', 5000);
    const post = xPost('A broken video', { postType: 'video', media: [video.ref] });
    const tweetsBefore = world.fake.control.tweets().length;

    const outcome = await world.connector.publish(
      publishRequest(post, tokens, { media: [video.delivery], bytes }),
    );

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_PROCESSING_FAILED',
      platformRawCode: 'InvalidMedia',
      message: 'X could not process the media file.',
    });
    expect(world.fake.control.tweets()).toHaveLength(tweetsBefore);
  });

  it('hands back pending mid-upload when its time budget is spent, and carries on from the next segment', async () => {
    let now = 1_000_000;
    const budgeted = (await import('../../../../shared/networks/x/connector.js')).makeXConnector({
      apiUrl: world.fake.apiUrl,
      chunkBytes: CHUNK,
      uploadBudgetMs: 10,
      now: () => {
        now += 6;
        return now;
      },
    });
    const image = storedMedia(bytes, 'image/webp', 4 * CHUNK);
    const post = xPost('A slow upload', { postType: 'image', media: [image.ref] });

    const first = await budgeted.publish(publishRequest(post, tokens, { media: [image.delivery], bytes }));

    expect(first).toMatchObject({ kind: 'pending', stage: 'media_upload', checkAfterSeconds: 1 });
    const partial = world.fake.control.media().at(-1);
    const sent = partial?.segments.length ?? 0;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(4);
    expect(progressOf(first)).toEqual({
      posted: [],
      media: { '0': { id: partial?.id, stage: 'appending', next: sent } },
    });

    let outcome = first;
    for (let call = 0; call < 4 && outcome.kind === 'pending'; call += 1) {
      outcome = await budgeted.publish(
        publishRequest(post, tokens, { media: [image.delivery], bytes, progress: progressOf(outcome) }),
      );
    }

    expect(outcome.kind).toBe('published');
    const finished = world.fake.control.media().find((media) => media.id === partial?.id);
    expect(finished).toMatchObject({ segments: [CHUNK, CHUNK, CHUNK, CHUNK], sha256: image.sha256 });
  });

  it('refuses a file larger than X takes without uploading it, and maps X\'s own "too large"', async () => {
    const huge = storedMedia(bytes, 'image/png', 10);
    const tooBig = {
      ...huge.delivery,
      stored: huge.delivery.stored && { ...huge.delivery.stored, sizeBytes: 6 * 1024 * 1024 },
    };
    const post = xPost('Too big', { postType: 'image', media: [huge.ref] });
    const calls = world.fake.control.requests().length;

    const local = await world.connector.publish(publishRequest(post, tokens, { media: [tooBig], bytes }));

    expect(local).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_TOO_LARGE' });
    expect(world.fake.control.requests()).toHaveLength(calls);

    world.fake.control.failNext('media.initialize', {
      status: 400,
      body: {
        title: 'Invalid Request',
        detail: 'File size exceeds 5242880 bytes.',
        type: 'https://api.x.com/2/problems/invalid-request',
      },
    });
    const remote = await world.connector.publish(
      publishRequest(post, tokens, { media: [huge.delivery], bytes }),
    );

    expect(remote).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_TOO_LARGE',
      platformRawCode: '400 invalid-request',
    });
  });

  it('refuses a file type X does not take', async () => {
    const heic = storedMedia(bytes, 'image/heic', 100);
    const post = xPost('HEIC', { postType: 'image', media: [heic.ref] });

    const outcome = await world.connector.publish(
      publishRequest(post, tokens, { media: [heic.delivery], bytes }),
    );

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_TYPE_NOT_SUPPORTED' });
  });

  it('uploads each item of a thread before posting it, and keeps its media with the right tweet', async () => {
    const [a, b] = [storedMedia(bytes, 'image/png', 300), storedMedia(bytes, 'image/gif', 400)];
    world.fake.control.nextProcessing({ polls: 0 });
    const post = xPost([
      { text: 'thread with media 1/', media: [a.ref] },
      { text: 'thread with media 2/' },
      { text: 'thread with media 3/', media: [b.ref] },
    ]);

    const outcome = await world.connector.publish(
      publishRequest(post, tokens, { media: [a.delivery, b.delivery], bytes }),
    );

    const [one, two, three] = world.fake.control.tweets().slice(-3);
    const uploads = world.fake.control.media().slice(-2);
    expect(one?.mediaIds).toEqual([uploads[0]?.id]);
    expect(two?.mediaIds).toEqual([]);
    expect(three?.mediaIds).toEqual([uploads[1]?.id]);
    expect(uploads[1]?.category).toBe('tweet_gif');
    expect(outcome).toMatchObject({ kind: 'published', platformPostId: one?.id });
  });
});
