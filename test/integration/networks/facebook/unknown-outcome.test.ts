import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LookupRequest, PublishRequest } from '../../../../shared/ports/connector.js';
import { aRequest, type FacebookWorld, PAGE, reelBytes, startWorld, storedMedia } from './facebook-world.js';

/** A time-out after Meta accepted: the worker looks the post up, and never posts it twice. */
describe('Facebook: an unknown outcome is looked up, never published twice', () => {
  let world: FacebookWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  const lookUp = (request: PublishRequest, progress: LookupRequest['progress']) => {
    const findPublished = world.network.connector.findPublished;
    if (!findPublished) throw new Error('Facebook should look posts up');
    return findPublished({
      account: request.account,
      ...(request.credentials && { credentials: request.credentials }),
      post: request.post,
      clientReference: request.clientReference,
      ...(progress && { progress }),
      signal: AbortSignal.timeout(5_000),
    });
  };

  it('a feed post Meta made while the worker stopped waiting: unknown with when it was sent, then found; ONE post', async () => {
    world.fake.control.inject('feed', { kind: 'delayAfter', ms: 1_500 });
    const request = aRequest(world, 'text', [], { signal: AbortSignal.timeout(300) });
    const outcome = await world.network.connector.publish(request);
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const progress = outcome.kind === 'unknown' ? outcome.progress : undefined;
    expect(Date.parse(String(progress?.attemptAt))).toBeLessThanOrEqual(Date.now());
    const found = await lookUp(request, progress);
    const [post] = world.fake.control.posts();
    expect(found).toMatchObject({ kind: 'found', platformPostId: post?.id });
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('a connection dropped before Meta did anything: unknown, then not_found (the retry posts it once)', async () => {
    world.fake.control.inject('feed', { kind: 'reset' });
    const request = aRequest(world, 'text');
    const outcome = await world.network.connector.publish(request);
    expect(outcome.kind).toBe('unknown');
    expect(await lookUp(request, outcome.kind === 'unknown' ? outcome.progress : undefined)).toEqual({
      kind: 'not_found',
    });
  });

  it('506 on a retry (an earlier attempt went through unseen) is unknown, then found: ONE post', async () => {
    const first = aRequest(world, 'text');
    expect((await world.network.connector.publish(first)).kind).toBe('published');
    const retry = await world.network.connector.publish({ ...first, attempt: 2 });
    expect(retry).toMatchObject({ kind: 'unknown', code: 'PLATFORM_DUPLICATE_ON_RETRY' });
    const found = await lookUp(first, retry.kind === 'unknown' ? retry.progress : undefined);
    expect(found).toMatchObject({ kind: 'found', platformPostId: world.fake.control.posts()[0]?.id });
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('a post Meta accepted (200) without naming it is unknown, never a failure to retry blindly', async () => {
    world.fake.control.inject('feed', { kind: 'reply', reply: { status: 200, json: { success: true } } });
    const outcome = await world.network.connector.publish(aRequest(world, 'text'));
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_NO_POST_ID' });
    expect(outcome.kind === 'unknown' && outcome.progress?.attemptAt).toBeTruthy();
  });

  it('the same text posted earlier (before the attempt) by someone else is not taken for ours', async () => {
    world.fake.control.addPost({
      pageId: PAGE.pageId,
      kind: 'status',
      message: 'Fresh sourdough from 7am',
      photoIds: [],
      createdTime: Date.now() - 3 * 60 * 60 * 1000,
    });
    const request = aRequest(world, 'text');
    expect(await lookUp(request, { v: 1, attemptAt: new Date().toISOString() })).toEqual({
      kind: 'not_found',
    });
  });

  it('a multi-photo post whose feed call timed out is found by its text; its photos were uploaded once', async () => {
    const items = [1, 2].map(() => storedMedia(world, 'image'));
    world.fake.control.inject('feed', { kind: 'delayAfter', ms: 1_500 });
    const request = aRequest(world, 'carousel', items, {
      signal: AbortSignal.timeout(500),
      postOverrides: { content: 'Two loaves' },
    });
    const outcome = await world.network.connector.publish(request);
    expect(outcome.kind).toBe('unknown');
    const found = await lookUp(request, outcome.kind === 'unknown' ? outcome.progress : undefined);
    expect(found).toMatchObject({ kind: 'found', platformPostId: world.fake.control.posts()[0]?.id });
    expect(world.fake.control.photos()).toHaveLength(2);
  });

  it('a reel whose finish timed out: the look-up reads its status; the retry finishes nothing twice; ONE reel', async () => {
    const reel = storedMedia(world, 'video', { bytes: reelBytes(8) });
    // start, then finish (the second reels call) answered too late.
    world.fake.control.inject('reels', { kind: 'pass' });
    world.fake.control.inject('reels', { kind: 'delayAfter', ms: 1_500 });
    const request = aRequest(world, 'reel', [reel], { signal: AbortSignal.timeout(700) });
    const outcome = await world.network.connector.publish(request);
    expect(outcome).toMatchObject({ kind: 'unknown' });
    const progress = outcome.kind === 'unknown' ? outcome.progress : undefined;
    expect(progress).toMatchObject({ uploaded: true });
    expect(progress?.finished).toBeUndefined();
    // Still processing: not published yet, so the look-up sends the worker back to publish.
    expect(await lookUp(request, progress)).toEqual({ kind: 'not_found' });
    const retry = await world.network.connector.publish({
      ...request,
      progress,
      signal: AbortSignal.timeout(5_000),
    });
    const finishes = world.fake.control.seen().filter((seen) => seen.params.upload_phase === 'finish');
    expect(finishes).toHaveLength(1);
    expect(['pending', 'published']).toContain(retry.kind);
    const [video] = world.fake.control.videos();
    // Once processed the look-up finds it by its id.
    const settled = await lookUp(request, retry.kind === 'pending' ? retry.progress : progress);
    expect(settled).toEqual({
      kind: 'found',
      platformPostId: video?.id,
      platformPostUrl: `https://www.facebook.com/reel/${video?.id}`,
    });
    expect(world.fake.control.videos()).toHaveLength(1);
  });

  it('a reel that never got an id was never published: not_found', async () => {
    const reel = storedMedia(world, 'video');
    expect(await lookUp(aRequest(world, 'reel', [reel]), undefined)).toEqual({ kind: 'not_found' });
  });

  it('a feed video whose upload timed out is found among the Page’s videos by its description', async () => {
    const video = storedMedia(world, 'video');
    world.fake.control.inject('videos', { kind: 'delayAfter', ms: 1_500 });
    const request = aRequest(world, 'video', [video], {
      signal: AbortSignal.timeout(500),
      postOverrides: { content: 'Behind the counter' },
    });
    const outcome = await world.network.connector.publish(request);
    expect(outcome.kind).toBe('unknown');
    const found = await lookUp(request, outcome.kind === 'unknown' ? outcome.progress : undefined);
    expect(found).toMatchObject({ kind: 'found', platformPostId: world.fake.control.videos()[0]?.id });
  });
});
