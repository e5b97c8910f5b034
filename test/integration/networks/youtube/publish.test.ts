import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishOutcome, PublishProgress } from '../../../../shared/ports/connector.js';
import {
  aPost,
  aRequest,
  CHANNEL,
  channelToken,
  KIB,
  patternBytes,
  startWorld,
  storedVideo,
  type YouTubeWorld,
} from './youtube-world.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function pendingProgress(outcome: PublishOutcome, stage: string): PublishProgress {
  if (outcome.kind !== 'pending' || outcome.stage !== stage) {
    throw new Error(`Expected pending ${stage}, got ${JSON.stringify(outcome)}`);
  }
  return outcome.progress;
}

describe('YouTube publishing against the fake', () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  it('uploads the video by resumable session in 256 KiB chunks read one range at a time, waits for processing with pending, then publishes', async () => {
    world = await startWorld();
    const token = channelToken(world);
    const content = patternBytes(600 * KIB);
    const video = storedVideo(world.bytes, content);

    const first = await world.network.connector.publish(aRequest(world, token, { media: [video] }));

    const progress = pendingProgress(first, 'media_processing');
    expect(first).toMatchObject({ checkAfterSeconds: 30 });
    const [uploaded] = world.fake.control.videos();
    expect(progress).toEqual({
      v: 1,
      state: 'processing',
      media: 'med_video_1',
      videoId: uploaded?.id,
      privacyStatus: 'private',
    });
    expect(uploaded).toMatchObject({
      channelId: CHANNEL.id,
      snippet: { title: 'Launch day', description: 'Everything about the launch.' },
      privacyStatus: 'private',
      madeForKids: false,
      notifySubscribers: true,
      size: content.length,
      sha256: sha256(content),
    });
    expect(world.bytes.ranges.map(({ start, end }) => [start, end])).toEqual([
      [0, 256 * KIB],
      [256 * KIB, 512 * KIB],
      [512 * KIB, 600 * KIB],
    ]);
    expect(world.bytes.streams).toEqual([]);
    const puts = world.fake.control.requests().filter((request) => request.endpoint === 'upload.put');
    expect(puts.map((request) => request.contentRange)).toEqual([
      `bytes 0-${256 * KIB - 1}/${600 * KIB}`,
      `bytes ${256 * KIB}-${512 * KIB - 1}/${600 * KIB}`,
      `bytes ${512 * KIB}-${600 * KIB - 1}/${600 * KIB}`,
    ]);
    const [session] = world.fake.control
      .requests()
      .filter((request) => request.endpoint === 'upload.session');
    expect(session?.query).toMatchObject({ uploadType: 'resumable', part: 'snippet,status' });

    const second = await world.network.connector.publish(
      aRequest(world, token, { media: [video], progress, attempt: 2 }),
    );

    expect(second).toEqual({
      kind: 'published',
      platformPostId: uploaded?.id,
      platformPostUrl: `https://www.youtube.com/watch?v=${uploaded?.id}`,
    });
    expect(world.fake.control.videos()).toHaveLength(1);
    // 1,600 for the insert, 1 per status read.
    expect(world.fake.control.quota().used).toBe(1602);
  });

  it('publishes a video an unaudited API project had locked private, with that fact on it, when public was asked', async () => {
    // Prepare
    world = await startWorld({ processingPolls: 0, unauditedProject: true });
    const post = aPost({ platformOptions: { youtube: { title: 'Launch', privacyStatus: 'public' } } });
    const video = storedVideo(world.bytes, patternBytes(300 * KIB));

    // Act
    const outcome = await world.network.connector.publish(
      aRequest(world, channelToken(world), { post, media: [video] }),
    );

    // Assess
    const [uploaded] = world.fake.control.videos();
    expect(uploaded?.privacyStatus).toBe('private');
    expect(outcome).toMatchObject({
      kind: 'published',
      platformPostId: uploaded?.id,
      warnings: [{ code: 'PLATFORM_VISIBILITY_CHANGED' }],
    });
    expect(outcome.kind === 'published' && outcome.warnings?.[0]?.message).toMatch(/private although public/);
  });

  it('says nothing of the visibility when YouTube keeps the one asked (an audited project)', async () => {
    world = await startWorld({ processingPolls: 0 });
    const post = aPost({ platformOptions: { youtube: { title: 'Launch', privacyStatus: 'public' } } });
    const video = storedVideo(world.bytes, patternBytes(300 * KIB));
    const outcome = await world.network.connector.publish(
      aRequest(world, channelToken(world), { post, media: [video] }),
    );
    expect(outcome.kind).toBe('published');
    expect(outcome.kind === 'published' && outcome.warnings).toBeUndefined();
  });

  it('sends the YouTube options: title, description, tags, privacy, category, made-for-kids, no notification', async () => {
    world = await startWorld({ processingPolls: 0 });
    const post = aPost({
      postType: 'short',
      content: 'All of this text is the description',
      platformOptions: {
        youtube: {
          title: 'A vertical clip',
          tags: ['launch', 'behind the scenes'],
          privacyStatus: 'unlisted',
          categoryId: '22',
          madeForKids: true,
          notifySubscribers: false,
        },
      },
    });

    const outcome = await world.network.connector.publish(aRequest(world, channelToken(world), { post }));

    expect(outcome.kind).toBe('published');
    expect(world.fake.control.videos()[0]).toMatchObject({
      snippet: {
        title: 'A vertical clip',
        description: 'All of this text is the description',
        tags: ['launch', 'behind the scenes'],
        categoryId: '22',
      },
      privacyStatus: 'unlisted',
      madeForKids: true,
      notifySubscribers: false,
    });
  });

  it('after a connection dropped mid-chunk, answers pending with the session and offset; the next attempt asks for the received range and goes on from there, never from zero', async () => {
    world = await startWorld({ processingPolls: 0 });
    const token = channelToken(world);
    const content = patternBytes(900 * KIB, 3);
    const video = storedVideo(world.bytes, content);
    world.fake.control.failNext('upload.put', { kind: 'pass' });
    world.fake.control.failNext('upload.put', { kind: 'partial', keepBytes: 100 * KIB });

    const first = await world.network.connector.publish(aRequest(world, token, { media: [video] }));

    const progress = pendingProgress(first, 'upload_interrupted');
    expect(progress).toMatchObject({ state: 'uploading', total: 900 * KIB, offset: 256 * KIB });
    expect(first).toMatchObject({ checkAfterSeconds: 5 });
    world.bytes.ranges.length = 0;

    const second = await world.network.connector.publish(
      aRequest(world, token, { media: [video], progress, attempt: 2 }),
    );

    expect(second.kind).toBe('published');
    const requests = world.fake.control.requests();
    expect(requests.filter((request) => request.endpoint === 'upload.session')).toHaveLength(1);
    const resumed = requests.filter((request) => request.endpoint === 'upload.put').slice(2);
    expect(resumed[0]?.contentRange).toBe(`bytes */${900 * KIB}`);
    expect(resumed[1]?.contentRange).toBe(`bytes ${356 * KIB}-${612 * KIB - 1}/${900 * KIB}`);
    expect(world.bytes.ranges[0]?.start).toBe(356 * KIB);
    const [uploaded] = world.fake.control.videos();
    expect(uploaded?.sha256).toBe(sha256(content));
    expect(world.fake.control.videos()).toHaveLength(1);
  });

  it('stops at its time budget with pending and the offset reached; the next invocation continues the same session', async () => {
    let clock = Date.parse('2026-05-10T12:00:00Z');
    world = await startWorld(
      { processingPolls: 0 },
      {
        budgetMs: 30_000,
        now: () => {
          clock += 12_000;
          return clock;
        },
      },
    );
    const token = channelToken(world);
    const content = patternBytes(1200 * KIB, 5);
    const video = storedVideo(world.bytes, content);

    const first = await world.network.connector.publish(aRequest(world, token, { media: [video] }));

    const progress = pendingProgress(first, 'uploading');
    expect(first).toMatchObject({ checkAfterSeconds: 1 });
    // Chunks end 12, 24 and 36 s in: the third passes the 30 s budget.
    expect(progress).toMatchObject({ state: 'uploading', offset: 768 * KIB });
    const second = await world.network.connector.publish(
      aRequest(world, token, { media: [video], progress, attempt: 2 }),
    );
    const third =
      second.kind === 'pending'
        ? await world.network.connector.publish(
            aRequest(world, token, { media: [video], progress: second.progress, attempt: 3 }),
          )
        : second;

    expect(third.kind).toBe('published');
    expect(
      world.fake.control.requests().filter((request) => request.endpoint === 'upload.session'),
    ).toHaveLength(1);
    expect(world.fake.control.videos()[0]?.sha256).toBe(sha256(content));
  });

  it('when the last chunk was taken and its answer lost, the next attempt learns from the session that the video exists', async () => {
    world = await startWorld({ processingPolls: 0 });
    const token = channelToken(world);
    const video = storedVideo(world.bytes, patternBytes(300 * KIB));
    world.fake.control.failNext('upload.put', { kind: 'pass' });
    world.fake.control.failNext('upload.put', { kind: 'resetAfter' });

    const first = await world.network.connector.publish(aRequest(world, token, { media: [video] }));
    const progress = pendingProgress(first, 'upload_interrupted');
    const second = await world.network.connector.publish(
      aRequest(world, token, { media: [video], progress, attempt: 2 }),
    );

    const [uploaded] = world.fake.control.videos();
    expect(second).toMatchObject({ kind: 'published', platformPostId: uploaded?.id });
    expect(world.fake.control.videos()).toHaveLength(1);
  });

  it('opens a new session when the old one is gone', async () => {
    world = await startWorld({ processingPolls: 0 });
    const token = channelToken(world);
    const video = storedVideo(world.bytes, patternBytes(300 * KIB));
    const stale: PublishProgress = {
      v: 1,
      state: 'uploading',
      media: 'med_video_1',
      session: `${world.fake.uploadUrl}/videos?uploadType=resumable&upload_id=expired`,
      total: 300 * KIB,
      offset: 256 * KIB,
    };

    const outcome = await world.network.connector.publish(
      aRequest(world, token, { media: [video], progress: stale }),
    );

    expect(outcome.kind).toBe('published');
    expect(
      world.fake.control.requests().filter((request) => request.endpoint === 'upload.session'),
    ).toHaveLength(1);
  });

  it('reports processing that failed as a media failure, and a video YouTube rejects as a duplicate as DUPLICATE_CONTENT', async () => {
    world = await startWorld({ processingPolls: 0 });
    const token = channelToken(world);
    world.fake.control.failProcessing('codec');

    const broken = await world.network.connector.publish(aRequest(world, token));
    expect(broken).toEqual({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_INVALID',
      message:
        'YouTube could not process the video: the file is empty, too small, or in a format it cannot read.',
      platformRawCode: 'codec',
    });

    const content = patternBytes(300 * KIB, 11);
    const once = await world.network.connector.publish(
      aRequest(world, token, { media: [storedVideo(world.bytes, content, 'med_a')] }),
    );
    expect(once.kind).toBe('published');
    const again = await world.network.connector.publish(
      aRequest(world, token, { media: [storedVideo(world.bytes, content, 'med_b')] }),
    );
    expect(again).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'DUPLICATE_CONTENT',
      platformRawCode: 'duplicate',
    });

    world.fake.control.rejectNext('copyright');
    const claimed = await world.network.connector.publish(
      aRequest(world, token, { media: [storedVideo(world.bytes, patternBytes(300 * KIB, 12), 'med_c')] }),
    );
    expect(claimed).toMatchObject({ code: 'PLATFORM_REJECTED', platformRawCode: 'copyright' });
  });

  it('ignores progress left for another media item, so a changed post never continues another file', async () => {
    world = await startWorld({ processingPolls: 0 });
    const token = channelToken(world);
    const outcome = await world.network.connector.publish(
      aRequest(world, token, {
        progress: { v: 1, state: 'processing', media: 'med_other', videoId: 'abcdefghijk' },
      }),
    );
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.videos()).toHaveLength(1);
  });

  it('keeps checking while processing lasts, keeps the video id through a refused token and a lost answer, and reports a video deleted meanwhile', async () => {
    world = await startWorld({ processingPolls: 3 });
    const token = channelToken(world);
    const video = storedVideo(world.bytes, patternBytes(300 * KIB));
    const first = await world.network.connector.publish(aRequest(world, token, { media: [video] }));
    const progress = pendingProgress(first, 'media_processing');
    const again = (extra: Partial<Parameters<typeof aRequest>[2]> = {}) =>
      world.network.connector.publish(
        aRequest(world, token, { media: [video], progress, attempt: 2, ...extra }),
      );

    expect(await again()).toMatchObject({ kind: 'pending', stage: 'media_processing', progress });
    world.fake.control.failNext('videos.list', { kind: 'reset' });
    expect(await again()).toMatchObject({ kind: 'pending', stage: 'media_processing', progress });
    const stale = channelToken(world);
    world.fake.control.expireAccessToken(stale);
    expect(
      await world.network.connector.publish(aRequest(world, stale, { media: [video], progress, attempt: 3 })),
    ).toMatchObject({ kind: 'failed', failure: 'auth_rejected', progress });

    world.fake.control.deleteVideo(String(progress.videoId));
    expect(await again()).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_REJECTED',
      platformRawCode: 'deleted',
    });
    expect(
      world.fake.control.requests().filter((request) => request.endpoint === 'upload.session'),
    ).toHaveLength(1);
  });
});
