import { afterEach, describe, expect, it } from 'vitest';
import type { LookupRequest, PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import {
  aPost,
  aRequest,
  CREATOR,
  creatorToken,
  patternBytes,
  publishUntilSettled,
  startWorld,
  stored,
  type TikTokWorld,
} from './tiktok-world.js';

const KB = 1024;

/**
 * A time-out after TikTok accepted: the attempt answers `unknown` with what it had, the worker
 * looks it up with that progress, and whatever it finds leads to one post on TikTok, never two.
 */
describe('TikTok after a request whose answer never came', () => {
  let world: TikTokWorld;
  afterEach(() => world.stop());

  const lookUpRequest = (request: PublishRequest, outcome: PublishOutcome): LookupRequest => ({
    account: request.account,
    ...(request.credentials && { credentials: request.credentials }),
    post: request.post,
    clientReference: request.clientReference,
    ...(outcome.kind === 'unknown' && outcome.progress && { progress: outcome.progress }),
    signal: AbortSignal.timeout(5_000),
  });

  const published = () => world.fake.control.publishes().filter((p) => p.status === 'PUBLISH_COMPLETE');

  it('finds the post by its publish id when the last chunk’s answer was lost and TikTok published it', async () => {
    world = await startWorld({ settings: { processingPolls: 0 } });
    const request = aRequest(world, creatorToken(world), {
      media: [stored(world.bytes, 'video', patternBytes(3 * KB))],
      signal: AbortSignal.timeout(1_000),
    });
    // The only chunk lands, and its answer is held past the attempt's patience.
    world.fake.control.failNext('upload', { kind: 'delayAfter', ms: 3_000 });
    const second = await world.network.connector.publish(request);
    expect(second).toMatchObject({
      kind: 'unknown',
      code: 'PLATFORM_TIMEOUT',
      progress: { uncertain: true },
    });
    const found = await world.network.connector.findPublished?.(lookUpRequest(request, second));
    const [publish] = published();
    expect(found).toEqual({
      kind: 'found',
      platformPostId: publish?.postId,
      platformPostUrl: `https://www.tiktok.com/@${CREATOR.username}/video/${publish?.postId}`,
    });
    expect(world.fake.control.seen().filter((s) => s.endpoint === 'video_init')).toHaveLength(1);
  });

  it('answers not_found while TikTok still processes it, and the retry with the same progress polls that publish, not a new one', async () => {
    world = await startWorld({ settings: { processingPolls: 2 } });
    const request = aRequest(world, creatorToken(world), {
      media: [stored(world.bytes, 'video', patternBytes(3 * KB))],
      signal: AbortSignal.timeout(1_000),
    });
    world.fake.control.failNext('upload', { kind: 'delayAfter', ms: 3_000 });
    const lost = await world.network.connector.publish(request);
    expect(lost).toMatchObject({ kind: 'unknown' });
    expect(await world.network.connector.findPublished?.(lookUpRequest(request, lost))).toEqual({
      kind: 'not_found',
    });
    const { outcome } = await publishUntilSettled(world, {
      ...request,
      signal: AbortSignal.timeout(5_000),
      ...(lost.kind === 'unknown' && lost.progress && { progress: lost.progress }),
    });
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.publishes()).toHaveLength(1);
    expect(published()).toHaveLength(1);
  });

  it('answers not_found for a video whose init answer was lost: its bytes never left, so TikTok cannot publish it; the retry posts once', async () => {
    world = await startWorld();
    const request = aRequest(world, creatorToken(world), {
      media: [stored(world.bytes, 'video', patternBytes(2 * KB))],
      signal: AbortSignal.timeout(800),
    });
    world.fake.control.failNext('video_init', { kind: 'delayAfter', ms: 3_000 });
    const lost = await world.network.connector.publish(request);
    expect(lost).toMatchObject({
      kind: 'unknown',
      progress: { kind: 'video', initSentAt: expect.any(String) },
    });
    expect(lost.kind === 'unknown' && lost.progress).not.toHaveProperty('publishId');
    expect(await world.network.connector.findPublished?.(lookUpRequest(request, lost))).toEqual({
      kind: 'not_found',
    });
    const { outcome } = await publishUntilSettled(world, { ...request, signal: AbortSignal.timeout(5_000) });
    expect(outcome.kind).toBe('published');
    expect(published()).toHaveLength(1);
  });

  it('answers unknown for photos whose init answer was lost (TikTok pulls them itself), and without any recorded progress', async () => {
    world = await startWorld();
    const request = aRequest(world, creatorToken(world), {
      post: aPost({ postType: 'carousel' }),
      media: [{ kind: 'image', url: 'https://media.example.com/a.jpg' }],
      signal: AbortSignal.timeout(800),
    });
    world.fake.control.failNext('content_init', { kind: 'delayAfter', ms: 3_000 });
    const lost = await world.network.connector.publish(request);
    expect(lost.kind).toBe('unknown');
    expect(await world.network.connector.findPublished?.(lookUpRequest(request, lost))).toMatchObject({
      kind: 'unknown',
    });
    const noProgress = lookUpRequest(request, { kind: 'unknown', code: 'X', message: 'x' });
    expect(await world.network.connector.findPublished?.(noProgress)).toMatchObject({ kind: 'unknown' });
  });

  it('answers unknown when the status look-up itself fails', async () => {
    world = await startWorld();
    const request = aRequest(world, creatorToken(world), {
      media: [stored(world.bytes, 'video', patternBytes(2 * KB))],
    });
    const pending = await world.network.connector.publish(request);
    expect(pending.kind).toBe('pending');
    world.fake.control.failNext('status', { kind: 'error', status: 500, code: 'internal_error' });
    const lookUp = lookUpRequest(request, {
      kind: 'unknown',
      code: 'X',
      message: 'x',
      ...(pending.kind === 'pending' && { progress: pending.progress }),
    });
    expect(await world.network.connector.findPublished?.(lookUp)).toMatchObject({ kind: 'unknown' });
  });
});
