import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PublishOutcome } from '../../../../shared/ports/connector.js';
import {
  aRequest,
  type FacebookWorld,
  jpegBytes,
  PAGE,
  pngBytes,
  reelBytes,
  startWorld,
  storedMedia,
} from './facebook-world.js';

describe('publishing to a Facebook Page through the fake', () => {
  let world: FacebookWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  const publish = (request: Parameters<FacebookWorld['network']['connector']['publish']>[0]) =>
    world.network.connector.publish(request);

  it('a text post with a link: one feed post with the link for its preview card, named by its permalink', async () => {
    const outcome = await publish(
      aRequest(world, 'text', [], {
        postOverrides: {
          content: 'New loaves today',
          platformOptions: { facebook: { link: 'https://bakery.example/menu' } },
        },
      }),
    );
    const [post] = world.fake.control.posts();
    expect(post).toMatchObject({
      kind: 'link',
      message: 'New loaves today',
      link: 'https://bakery.example/menu',
    });
    const [, storyId] = String(post?.id).split('_');
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: post?.id,
      platformPostUrl: `https://www.facebook.com/${PAGE.pageId}/posts/${storyId}`,
    });
    // The Page token went in the Authorization header, never in the URL.
    const feed = world.fake.control.seen().find((seen) => seen.endpoint === 'feed');
    expect(feed?.params).not.toHaveProperty('access_token');
  });

  it('a photo post: Meta fetches the photo from a presigned URL, with the text and its alt text', async () => {
    const photo = storedMedia(world, 'image', {
      bytes: pngBytes(),
      mimeType: 'image/png',
      alt: 'A rye loaf',
    });
    const outcome = await publish(
      aRequest(world, 'image', [photo], { postOverrides: { content: 'Rye day' } }),
    );
    const [made] = world.fake.control.photos();
    expect(made).toMatchObject({
      published: true,
      altText: 'A rye loaf',
      fetched: { contentType: 'image/png' },
    });
    const [post] = world.fake.control.posts();
    expect(post).toMatchObject({ kind: 'photo', message: 'Rye day', photoIds: [made?.id] });
    expect(outcome).toMatchObject({ kind: 'published', platformPostId: post?.id });
    expect(world.urls.presigned[0]?.expiresInSeconds).toBe(1800);
  });

  it('a multi-photo post: each photo unpublished first, then one post attaching them as attached_media[i] form fields', async () => {
    const items = [1, 2, 3].map((n) => storedMedia(world, 'image', { alt: `Loaf ${n}` }));
    const outcome = await publish(
      aRequest(world, 'carousel', items, {
        postOverrides: { content: 'Three loaves', media: items.map((i) => i.ref) },
      }),
    );
    const photos = world.fake.control.photos();
    expect(photos.map((photo) => [photo.published, photo.altText])).toEqual([
      [false, 'Loaf 1'],
      [false, 'Loaf 2'],
      [false, 'Loaf 3'],
    ]);
    const posts = world.fake.control.posts();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      kind: 'photos',
      message: 'Three loaves',
      photoIds: photos.map((p) => p.id),
    });
    const feed = world.fake.control.seen().find((seen) => seen.endpoint === 'feed');
    expect(feed?.formNames).toEqual([
      'message',
      'attached_media[0]',
      'attached_media[1]',
      'attached_media[2]',
    ]);
    expect(outcome).toMatchObject({ kind: 'published', platformPostId: posts[0]?.id });
  });

  it('a multi-photo post resumed after a failure uploads only the photos not yet made', async () => {
    const items = [1, 2].map(() => storedMedia(world, 'image'));
    world.fake.control.inject('feed', {
      kind: 'reply',
      reply: { status: 500, json: { error: { code: 2, message: 'x' } } },
    });
    const first = await publish(aRequest(world, 'carousel', items));
    expect(first).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_ERROR' });
    const progress = first.kind === 'failed' ? first.progress : undefined;
    expect(progress?.photos).toHaveLength(2);
    const second = await publish(aRequest(world, 'carousel', items, { progress, attempt: 2 }));
    expect(second.kind).toBe('published');
    expect(world.fake.control.photos()).toHaveLength(2);
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('a video: posted on the video host with file_url, pending while Meta processes it, then published', async () => {
    const video = storedMedia(world, 'video');
    const request = aRequest(world, 'video', [video], {
      postOverrides: {
        content: 'How we shape a baguette',
        platformOptions: { facebook: { title: 'Baguettes' } },
      },
    });
    const first = await publish(request);
    expect(first).toMatchObject({ kind: 'pending', checkAfterSeconds: 30, stage: 'video_processing' });
    const [made] = world.fake.control.videos();
    expect(made).toMatchObject({ kind: 'video', description: 'How we shape a baguette', title: 'Baguettes' });
    expect(world.fake.control.seen().find((seen) => seen.endpoint === 'videos')?.path).toMatch(
      /^\/graph-video\//,
    );
    const progress = first.kind === 'pending' ? first.progress : undefined;
    const second = await publish({ ...request, progress, attempt: 2 });
    expect(second).toEqual({
      kind: 'published',
      platformPostId: made?.id,
      platformPostUrl: `https://www.facebook.com/${PAGE.pageId}/videos/${made?.id}/`,
    });
    expect(world.fake.control.videos()).toHaveLength(1);
  });

  it('a reel: start, Meta fetches the file_url through rupload with the OAuth header, finish PUBLISHED, pending, then published', async () => {
    const reel = storedMedia(world, 'video', { bytes: reelBytes(12) });
    const request = aRequest(world, 'reel', [reel], { postOverrides: { content: 'Morning bake #reels' } });
    const first = await publish(request);
    expect(first.kind).toBe('pending');
    const upload = world.fake.control.seen().find((seen) => seen.endpoint === 'rupload');
    expect(upload?.headers.file_url).toContain('X-Amz-Signature');
    const finish = world.fake.control.seen().filter((seen) => seen.endpoint === 'reels')[1];
    expect(finish?.params).toMatchObject({
      upload_phase: 'finish',
      video_state: 'PUBLISHED',
      description: 'Morning bake #reels',
    });
    const progress = first.kind === 'pending' ? first.progress : undefined;
    expect(progress).toMatchObject({ uploaded: true, finished: true });
    const second: PublishOutcome = await publish({ ...request, progress, attempt: 2 });
    const [made] = world.fake.control.videos();
    expect(second).toEqual({
      kind: 'published',
      platformPostId: made?.id,
      platformPostUrl: `https://www.facebook.com/reel/${made?.id}`,
    });
    expect(made?.fetched).toMatchObject({ durationSeconds: 12, width: 1080, height: 1920 });
  });

  it('a reel Meta cannot process (longer than 90 s, or not 9:16) fails for good', async () => {
    for (const bytes of [reelBytes(120), reelBytes(10, { width: 1920, height: 1080 })]) {
      const reel = storedMedia(world, 'video', { bytes });
      const request = aRequest(world, 'reel', [reel]);
      const first = await publish(request);
      const progress = first.kind === 'pending' ? first.progress : undefined;
      const second = await publish({ ...request, progress, attempt: 2 });
      expect(second).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_PROCESSING_FAILED' });
    }
  });

  it('refuses before any call a photo Meta would refuse: over 4 MB, or a type it does not take', async () => {
    const big = storedMedia(world, 'image', { sizeBytes: 5_000_000 });
    expect(await publish(aRequest(world, 'image', [big]))).toMatchObject({
      kind: 'failed',
      code: 'MEDIA_TOO_LARGE',
    });
    const webp = storedMedia(world, 'image', { mimeType: 'image/webp' });
    expect(await publish(aRequest(world, 'image', [webp]))).toMatchObject({
      kind: 'failed',
      code: 'MEDIA_TYPE_UNSUPPORTED',
    });
    expect(world.fake.control.seen()).toHaveLength(0);
  });

  it('maps Meta’s own refusal of a photo whose bytes are not what its type says (1366046)', async () => {
    const liar = storedMedia(world, 'image', { bytes: jpegBytes(), mimeType: 'image/png' });
    expect(await publish(aRequest(world, 'image', [liar]))).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_TOO_LARGE',
      platformRawCode: '100/1366046',
    });
  });
});
