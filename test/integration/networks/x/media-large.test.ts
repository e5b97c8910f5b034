import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishOutcome } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import {
  connect,
  GeneratedMediaBytes,
  generatedMedia,
  publishRequest,
  startXWorld,
  type XWorld,
  xPost,
} from './x-fixture.js';

const MiB = 1024 * 1024;

const progressOf = (outcome: PublishOutcome) => (outcome.kind === 'published' ? undefined : outcome.progress);

/**
 * Videos past the 512 MB of X's media overview: X takes up to 8 GB on a Post from any account
 * (https://docs.x.com/x-api/media/initialize-media-upload), in at most 1,000 APPEND segments of at
 * most 8 MB each. The bytes are made on read (GeneratedMediaBytes), a chunk at a time, so the
 * upload goes over real HTTP to the fake without holding the file in memory.
 */
describe('X connector: large videos through the fake X', () => {
  let world: XWorld;
  let tokens: TokenSet;
  const bytes = new GeneratedMediaBytes();
  beforeAll(async () => {
    world = await startXWorld();
    tokens = await connect(world);
  });
  afterAll(async () => {
    await world.fake.stop();
  });

  it('uploads and posts a video of 513 MiB, in 4 MiB segments, every byte in place', async () => {
    const size = 513 * MiB + 7;
    world.fake.control.nextProcessing({ polls: 0 });
    const video = generatedMedia(bytes, 'video/mp4', size);
    const post = xPost('A long video', { postType: 'video', media: [video.ref] });

    let outcome = await world.connector.publish(
      publishRequest(post, tokens, { media: [video.delivery], bytes, signal: AbortSignal.timeout(120_000) }),
    );
    // The connector hands back `pending` when its 30 s upload budget is spent: carry on as the worker would.
    for (let call = 0; call < 10 && outcome.kind === 'pending'; call += 1) {
      outcome = await world.connector.publish(
        publishRequest(post, tokens, {
          media: [video.delivery],
          bytes,
          progress: progressOf(outcome),
          signal: AbortSignal.timeout(120_000),
        }),
      );
    }

    const upload = world.fake.control.media().at(-1);
    expect(upload).toMatchObject({
      category: 'tweet_video',
      mediaType: 'video/mp4',
      totalBytes: size,
      sha256: GeneratedMediaBytes.sha256(size),
    });
    expect(upload?.segments).toHaveLength(129);
    expect(upload?.segments.slice(0, 128).every((segment) => segment === 4 * MiB)).toBe(true);
    expect(upload?.segments.at(-1)).toBe(MiB + 7);
    expect(outcome).toMatchObject({
      kind: 'published',
      platformPostId: world.fake.control.tweets().at(-1)?.id,
    });
  }, 180_000);

  it('sends a file that would take more than 1,000 segments of its chunk size in 1,000 larger ones', async () => {
    const small = await startXWorld({ chunkBytes: 1024 });
    try {
      const smallTokens = await connect(small);
      const size = 1000 * 1024 + 1;
      const video = generatedMedia(bytes, 'video/mp4', size);
      small.fake.control.nextProcessing({ polls: 0 });
      const post = xPost('Many segments', { postType: 'video', media: [video.ref] });

      const outcome = await small.connector.publish(
        publishRequest(post, smallTokens, {
          media: [video.delivery],
          bytes,
          signal: AbortSignal.timeout(60_000),
        }),
      );

      const upload = small.fake.control.media().at(-1);
      expect(upload?.segments).toHaveLength(1000);
      expect(upload?.segments[0]).toBe(1025);
      expect(upload?.sha256).toBe(GeneratedMediaBytes.sha256(size));
      expect(outcome.kind).toBe('published');
    } finally {
      await small.fake.stop();
    }
  }, 60_000);

  it('refuses, without a call to X, a video 1,000 segments of 8 MiB cannot carry', async () => {
    const video = generatedMedia(bytes, 'video/mp4', 1000 * 8 * MiB + 1);
    const post = xPost('Too long to append', { postType: 'video', media: [video.ref] });
    const calls = world.fake.control.requests().length;

    const outcome = await world.connector.publish(
      publishRequest(post, tokens, { media: [video.delivery], bytes }),
    );

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_TOO_LARGE' });
    expect(world.fake.control.requests()).toHaveLength(calls);
  });
});
