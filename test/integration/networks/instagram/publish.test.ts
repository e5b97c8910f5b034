import { afterEach, describe, expect, it } from 'vitest';
import type { PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import {
  aRequest,
  type InstagramWorld,
  jpegBytes,
  pngBytes,
  startWorld,
  storedMedia,
  USER,
  userToken,
} from './instagram-world.js';

function published(outcome: PublishOutcome): { platformPostId: string; platformPostUrl: string } {
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** Attempts as the worker makes them: each pending outcome's progress handed to the next. */
async function publishUntilSettled(world: InstagramWorld, request: PublishRequest, max = 5) {
  const outcomes: PublishOutcome[] = [];
  let progress = request.progress;
  for (let attempt = 1; attempt <= max; attempt += 1) {
    const outcome = await world.network.connector.publish({
      ...request,
      attempt,
      ...(progress && { progress }),
    });
    outcomes.push(outcome);
    if (outcome.kind !== 'pending') break;
    progress = outcome.progress;
  }
  return outcomes;
}

describe('Instagram publishing against the fake', () => {
  let world: InstagramWorld;
  afterEach(() => world.stop());

  it('publishes an image post: a container from a 15-minute presigned URL, with caption, alt text and user tags at x/y', async () => {
    world = await startWorld();
    const image = storedMedia(world, 'image', {
      alt: 'A lighthouse at dusk',
      userTags: [{ username: 'bob', x: 0.25, y: 0.75 }],
    });

    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'image', [image]),
    );

    const [media] = world.fake.control.media();
    expect(published(outcome)).toEqual({
      kind: 'published',
      platformPostId: media?.id,
      platformPostUrl: `https://www.instagram.com/p/${media?.id}/`,
    });
    const [container] = world.fake.control.containers();
    expect(container).toMatchObject({
      type: 'IMAGE',
      status: 'PUBLISHED',
      fetched: { contentType: 'image/jpeg', bytes: 2048 },
    });
    expect(container?.params).toMatchObject({
      caption: 'Golden hour #sunset',
      alt_text: 'A lighthouse at dusk',
      user_tags: JSON.stringify([{ username: 'bob', x: 0.25, y: 0.75 }]),
    });
    expect(world.urls.presigned).toEqual([{ key: image.delivered.stored?.objectKey, expiresInSeconds: 900 }]);
    expect(world.fake.control.fetchedUrls()).toHaveLength(1);
    // The limit is read before anything is made, and again before publishing.
    expect(world.fake.control.requests().map((r) => r.endpoint)).toEqual([
      'content_publishing_limit',
      'media.create',
      'object.get',
      'content_publishing_limit',
      'media_publish',
      'object.get',
    ]);
    expect(world.fake.control.requests().every((r) => r.authorized)).toBe(true);
  });

  it('publishes a carousel: item containers first (no caption), each FINISHED, then the parent; a video item still processing answers pending', async () => {
    world = await startWorld();
    const items = [
      storedMedia(world, 'image', { alt: 'first', userTags: [{ username: 'ann', x: 0.1, y: 0.2 }] }),
      storedMedia(world, 'video'),
      storedMedia(world, 'image'),
    ];
    const request = aRequest(world, userToken(world), 'carousel', items, {
      postOverrides: {
        content: [{ text: 'Three from the trip', media: [] }],
        media: items.map((item) => item.ref),
      },
    });

    const outcomes = await publishUntilSettled(world, request);

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['pending', 'published']);
    expect(outcomes[0]).toMatchObject({
      kind: 'pending',
      checkAfterSeconds: 60,
      stage: 'container_processing',
    });
    const containers = world.fake.control.containers();
    const children = containers.filter((container) => container.isCarouselItem);
    expect(children.map((child) => child.type)).toEqual(['IMAGE', 'VIDEO', 'IMAGE']);
    expect(children.every((child) => child.params.caption === undefined)).toBe(true);
    expect(children[0]?.params).toMatchObject({ alt_text: 'first', is_carousel_item: 'true' });
    const parent = containers.find((container) => container.type === 'CAROUSEL');
    expect(parent?.children).toEqual(children.map((child) => child.id));
    expect(parent?.params.caption).toBe('Three from the trip');
    const [media] = world.fake.control.media();
    expect(media).toMatchObject({ mediaType: 'CAROUSEL_ALBUM', caption: 'Three from the trip' });
    // Each item was fetched once: the pending attempt's containers were reused.
    expect(world.fake.control.fetchedUrls()).toHaveLength(3);
  });

  it('publishes a reel with its options (share_to_feed, thumb_offset, location, collaborators) after the container finishes', async () => {
    world = await startWorld({ processingPolls: { REELS: 2 } });
    const video = storedMedia(world, 'video', { userTags: [{ username: 'cam', x: 0.5, y: 0.5 }] });
    const request = aRequest(world, userToken(world), 'reel', [video], {
      postOverrides: {
        platformOptions: {
          instagram: {
            shareToFeed: false,
            thumbOffsetMs: 1500,
            locationId: '123456',
            collaborators: ['dee'],
          },
        },
      },
    });

    const outcomes = await publishUntilSettled(world, request);

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['pending', 'pending', 'published']);
    const [container] = world.fake.control.containers();
    expect(container?.params).toMatchObject({
      media_type: 'REELS',
      share_to_feed: 'false',
      thumb_offset: '1500',
      location_id: '123456',
      collaborators: '["dee"]',
      // Videos take usernames only.
      user_tags: '[{"username":"cam"}]',
    });
    expect(outcomes.at(-1)).toMatchObject({
      kind: 'published',
      platformPostUrl: expect.stringMatching(/\/reel\//),
    });
    expect(world.fake.control.containers()).toHaveLength(1);
  });

  it('publishes an image story: media_type STORIES, no caption', async () => {
    world = await startWorld();
    const image = storedMedia(world, 'image');

    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'story', [image]),
    );

    published(outcome);
    const [container] = world.fake.control.containers();
    expect(container?.type).toBe('STORIES');
    expect(container?.params.caption).toBeUndefined();
    expect(world.fake.control.media()[0]?.productType).toBe('STORY');
  });

  it('an image over 8 MiB fails MEDIA_TOO_LARGE (36000/2207004), and nothing is published', async () => {
    world = await startWorld({ maxImageBytes: 1024 });
    const image = storedMedia(world, 'image', { bytes: jpegBytes(4096) });

    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'image', [image]),
    );

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_TOO_LARGE',
      platformRawCode: '36000/2207004',
    });
    expect(world.fake.control.media()).toEqual([]);
  });

  it('an image whose bytes are not JPEG is refused by Instagram when it fetches it: permanent, with our own message', async () => {
    world = await startWorld();
    const image = storedMedia(world, 'image', { bytes: pngBytes(), mimeType: 'image/jpeg' });

    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'image', [image]),
    );

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_REJECTED',
      platformRawCode: '9004/2207005',
    });
    if (outcome.kind === 'failed') expect(outcome.message).not.toMatch(/JPEG images are/);
  });

  it.each([
    ['image', 'image/png', 2048, 'MEDIA_TYPE_UNSUPPORTED'],
    ['image', 'image/jpeg', 8 * 1024 * 1024 + 1, 'MEDIA_TOO_LARGE'],
    ['video', 'video/webm', 2048, 'MEDIA_TYPE_UNSUPPORTED'],
    ['video', 'video/mp4', 300 * 1000 * 1000 + 1, 'MEDIA_TOO_LARGE'],
  ] as const)(
    'a stored %s of %s, %i bytes, is refused %s before any call',
    async (kind, mimeType, size, code) => {
      world = await startWorld();
      const item = storedMedia(world, kind, { mimeType });
      if (item.delivered.stored) item.delivered.stored.sizeBytes = size;

      const outcome = await world.network.connector.publish(
        aRequest(world, userToken(world), kind === 'image' ? 'image' : 'reel', [item]),
      );

      expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code });
      expect(world.fake.control.requests()).toEqual([]);
    },
  );

  it('a container that ends ERROR fails MEDIA_PROCESSING_FAILED with its subcode; the progress keeps no container', async () => {
    world = await startWorld();
    world.fake.control.failProcessing(2207026);
    const video = storedMedia(world, 'video');

    const outcomes = await publishUntilSettled(world, aRequest(world, userToken(world), 'reel', [video]));

    const last = outcomes.at(-1);
    expect(last).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_PROCESSING_FAILED',
      platformRawCode: 'ERROR/2207026',
      progress: { v: 1 },
    });
    if (last?.kind === 'failed') expect(last.progress?.container).toBeUndefined();
  });

  it('an EXPIRED container fails for a retry, and the retry makes a new one and publishes it once', async () => {
    world = await startWorld({ processingPolls: { REELS: 1 } });
    const video = storedMedia(world, 'video');
    const request = aRequest(world, userToken(world), 'reel', [video]);
    const first = await world.network.connector.publish(request);
    expect(first.kind).toBe('pending');
    const expired = world.fake.control.containers()[0]?.id ?? '';
    world.fake.control.expireContainer(expired);

    const second = await world.network.connector.publish({
      ...request,
      attempt: 2,
      ...(first.kind === 'pending' && { progress: first.progress }),
    });
    expect(second).toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'CONTAINER_EXPIRED',
      platformRawCode: 'EXPIRED',
    });

    const rest = await publishUntilSettled(world, {
      ...request,
      attempt: 3,
      ...(second.kind === 'failed' && second.progress && { progress: second.progress }),
    });
    expect(rest.at(-1)?.kind).toBe('published');
    expect(world.fake.control.containers().map((c) => c.status)).toEqual(['EXPIRED', 'PUBLISHED']);
    expect(world.fake.control.media()).toHaveLength(1);
  });

  it('with the daily publishing limit used, fails rate_limited before making anything, until the oldest post leaves the window', async () => {
    world = await startWorld({ quotaTotal: 2 });
    const now = Date.now();
    world.fake.control.addPublished(USER.userId, [now - 20 * 60 * 60 * 1000, now - 60 * 60 * 1000]);
    const image = storedMedia(world, 'image');

    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'image', [image]),
    );

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      code: 'PUBLISH_LIMIT_REACHED',
      platformRawCode: '9/2207042',
    });
    if (outcome.kind !== 'failed') throw new Error('expected failed');
    // The oldest of the window was 20 hours ago: about 4 hours to go.
    expect(outcome.retryAfterSeconds).toBeGreaterThan(4 * 3600 - 120);
    expect(outcome.retryAfterSeconds).toBeLessThanOrEqual(4 * 3600 + 5);
    expect(world.fake.control.containers()).toEqual([]);
  });

  it('the limit enforced at media_publish (2207042) is rate_limited too, keeping the finished container for the retry', async () => {
    world = await startWorld();
    world.fake.control.failNext('media_publish', {
      kind: 'reply',
      reply: {
        status: 400,
        json: { error: { message: 'limit', type: 'OAuthException', code: 9, error_subcode: 2207042 } },
      },
    });
    const image = storedMedia(world, 'image');
    const request = aRequest(world, userToken(world), 'image', [image]);

    const first = await world.network.connector.publish(request);
    expect(first).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      code: 'PUBLISH_LIMIT_REACHED',
      retryAfterSeconds: 3600,
    });
    if (first.kind !== 'failed') throw new Error('expected failed');
    expect(first.progress?.container).toBe(world.fake.control.containers()[0]?.id);

    published(
      await world.network.connector.publish({
        ...request,
        attempt: 2,
        ...(first.progress && { progress: first.progress }),
      }),
    );
    expect(world.fake.control.containers()).toHaveLength(1);
  });

  it('a post whose media are not images or videos of its type fails before any call', async () => {
    world = await startWorld();
    const video = storedMedia(world, 'video');
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'image', [video]),
    );
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'PLATFORM_REJECTED' });
    expect(world.fake.control.requests()).toEqual([]);
  });

  it('without media URLs (no media bucket) fails transient MEDIA_UNAVAILABLE before making a container', async () => {
    world = await startWorld();
    const image = storedMedia(world, 'image');
    const { mediaUrls: _dropped, ...request } = aRequest(world, userToken(world), 'image', [image]);
    const outcome = await world.network.connector.publish(request);
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient', code: 'MEDIA_UNAVAILABLE' });
    expect(world.fake.control.containers()).toEqual([]);
  });
});
