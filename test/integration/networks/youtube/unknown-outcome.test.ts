import { afterEach, describe, expect, it } from 'vitest';
import type { LookupRequest, PublishOutcome } from '../../../../shared/ports/connector.js';
import {
  anAccount,
  aPost,
  aRequest,
  channelToken,
  KIB,
  patternBytes,
  startWorld,
  storedVideo,
  type YouTubeWorld,
} from './youtube-world.js';

function lookUp(world: YouTubeWorld, token: string, progress: LookupRequest['progress']) {
  const findPublished = world.network.connector.findPublished;
  if (!findPublished) throw new Error('YouTube looks posts up');
  const post = aPost();
  return findPublished({
    account: anAccount(),
    credentials: { accessToken: token },
    post,
    clientReference: post.postId,
    ...(progress && { progress }),
    signal: AbortSignal.timeout(5_000),
  });
}

function progressOf(outcome: PublishOutcome) {
  if (outcome.kind === 'published' || !outcome.progress)
    throw new Error(`No progress in ${JSON.stringify(outcome)}`);
  return outcome.progress;
}

describe('YouTube: a time-out after YouTube took the video', () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  it('answers unknown with the session when the worker gives up on the last chunk; the look-up finds the one video, and the post is not uploaded twice', async () => {
    world = await startWorld({ processingPolls: 0 });
    const token = channelToken(world);
    const video = storedVideo(world.bytes, patternBytes(300 * KIB));
    world.fake.control.failNext('upload.put', { kind: 'pass' });
    world.fake.control.failNext('upload.put', { kind: 'delayAfter', ms: 5_000 });
    const worker = new AbortController();
    // Well before the fake's delayed answer (5 s), and late enough for the chunks to arrive on a busy machine.
    const timer = setTimeout(() => worker.abort(), 2_000);

    const outcome = await world.network.connector.publish(
      aRequest(world, token, { media: [video], signal: worker.signal }),
    );
    clearTimeout(timer);

    expect(outcome).toMatchObject({
      kind: 'unknown',
      code: 'PLATFORM_TIMEOUT',
      progress: { state: 'uploading' },
    });
    const [uploaded] = world.fake.control.videos();
    expect(uploaded).toBeDefined();
    await expect(lookUp(world, token, progressOf(outcome))).resolves.toEqual({
      kind: 'found',
      platformPostId: uploaded?.id,
      platformPostUrl: `https://www.youtube.com/watch?v=${uploaded?.id}`,
    });
    expect(world.fake.control.videos()).toHaveLength(1);
    expect(
      world.fake.control.requests().filter((request) => request.endpoint === 'upload.session'),
    ).toHaveLength(1);
  });

  it('finds nothing for a session YouTube does not have the whole file of, and the retry continues that session', async () => {
    world = await startWorld({ processingPolls: 0 });
    const token = channelToken(world);
    const video = storedVideo(world.bytes, patternBytes(600 * KIB));
    world.fake.control.failNext('upload.put', { kind: 'pass' });
    world.fake.control.failNext('upload.put', { kind: 'delayAfter', ms: 5_000 });
    const worker = new AbortController();
    // Well before the fake's delayed answer (5 s), and late enough for the chunks to arrive on a busy machine.
    const timer = setTimeout(() => worker.abort(), 2_000);
    const outcome = await world.network.connector.publish(
      aRequest(world, token, { media: [video], signal: worker.signal }),
    );
    clearTimeout(timer);
    const progress = progressOf(outcome);

    await expect(lookUp(world, token, progress)).resolves.toEqual({ kind: 'not_found' });
    const retry = await world.network.connector.publish(
      aRequest(world, token, { media: [video], progress, attempt: 2 }),
    );

    expect(retry.kind).toBe('published');
    expect(
      world.fake.control.requests().filter((request) => request.endpoint === 'upload.session'),
    ).toHaveLength(1);
    expect(world.fake.control.videos()).toHaveLength(1);
  });

  it('finds the video a processing attempt named, and cannot tell without any upload recorded', async () => {
    world = await startWorld();
    const token = channelToken(world);
    await expect(
      lookUp(world, token, { v: 1, state: 'processing', media: 'med_video_1', videoId: 'abcdefghijk' }),
    ).resolves.toEqual({
      kind: 'found',
      platformPostId: 'abcdefghijk',
      platformPostUrl: 'https://www.youtube.com/watch?v=abcdefghijk',
    });
    await expect(lookUp(world, token, undefined)).resolves.toMatchObject({ kind: 'unknown' });
  });

  it('cannot tell when YouTube does not answer the session query', async () => {
    world = await startWorld();
    const token = channelToken(world);
    world.fake.control.failNext('upload.put', { kind: 'reset' });
    await expect(
      lookUp(world, token, {
        v: 1,
        state: 'uploading',
        media: 'med_video_1',
        session: `${world.fake.uploadUrl}/videos?upload_id=x`,
        total: 10,
        offset: 0,
      }),
    ).resolves.toMatchObject({ kind: 'unknown' });
  });

  it("with no upload recorded (a worker that died mid-call), finds the video among the channel's latest uploads by its title since the post was created", async () => {
    world = await startWorld({ processingPolls: 5 });
    const token = channelToken(world);
    const outcome = await world.network.connector.publish(aRequest(world, token));
    expect(outcome.kind).toBe('pending');
    const [uploaded] = world.fake.control.videos();

    await expect(lookUp(world, token, undefined)).resolves.toEqual({
      kind: 'found',
      platformPostId: uploaded?.id,
      platformPostUrl: `https://www.youtube.com/watch?v=${uploaded?.id}`,
    });
    const gone = {
      v: 1,
      state: 'uploading',
      media: 'med_video_1',
      session: `${world.fake.uploadUrl}/videos?upload_id=forgotten`,
      total: 10,
      offset: 0,
    };
    await expect(lookUp(world, token, gone)).resolves.toMatchObject({
      kind: 'found',
      platformPostId: uploaded?.id,
    });
    expect(
      world.fake.control.requests().filter((request) => request.endpoint === 'playlistItems.list'),
    ).toHaveLength(2);
  });

  it('does not take an older video with the same title for this post', async () => {
    world = await startWorld({ processingPolls: 5 });
    const token = channelToken(world);
    await world.network.connector.publish(aRequest(world, token));

    const later = aPost({ createdAt: new Date(Date.now() + 60 * 60 * 1000).toISOString() });
    const findPublished = world.network.connector.findPublished;
    await expect(
      findPublished?.({
        account: anAccount(),
        credentials: { accessToken: token },
        post: later,
        clientReference: later.postId,
        signal: AbortSignal.timeout(5_000),
      }),
    ).resolves.toMatchObject({ kind: 'unknown' });
  });
});
