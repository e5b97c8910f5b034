import { afterEach, describe, expect, it } from 'vitest';
import type { PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import {
  aRequest,
  type InstagramWorld,
  pngBytes,
  startWorld,
  storedMedia,
  userToken,
} from './instagram-world.js';

/** Attempts as the worker makes them: each pending outcome's progress handed to the next. */
async function publishUntilSettled(world: InstagramWorld, request: PublishRequest, max = 5) {
  let outcome: PublishOutcome = await world.network.connector.publish(request);
  for (let attempt = 2; attempt <= max && outcome.kind === 'pending'; attempt += 1) {
    outcome = await world.network.connector.publish({ ...request, attempt, progress: outcome.progress });
  }
  return outcome;
}

/** The raw Graph call the fake answers, for what the connector never sends. */
async function createContainer(world: InstagramWorld, token: string, params: Record<string, string>) {
  const response = await fetch(`${world.fake.graphUrl}/v23.0/me/media`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, body: (await response.json()) as { error?: { code?: number } } };
}

describe('Instagram trial reels and reel covers against the fake', () => {
  let world: InstagramWorld;
  afterEach(() => world.stop());

  it('publishes a trial reel: trial_params with the graduation strategy, kept on the published media', async () => {
    world = await startWorld({ processingPolls: { REELS: 0 } });
    for (const [graduation, strategy] of [
      ['manual', 'MANUAL'],
      ['auto', 'SS_PERFORMANCE'],
    ] as const) {
      const request = aRequest(world, userToken(world), 'reel', [storedMedia(world, 'video')], {
        postOverrides: {
          postId: `pst_trial_${graduation}`,
          platformOptions: { instagram: { trialReel: { graduation } } },
        },
      });
      expect(await publishUntilSettled(world, request)).toMatchObject({ kind: 'published' });
      expect(world.fake.control.media().at(-1)).toMatchObject({
        productType: 'REELS',
        trialParams: JSON.stringify({ graduation_strategy: strategy }),
      });
    }
    const sent = world.fake.control.containers().map((container) => container.params);
    expect(sent.every((params) => params.share_to_feed === undefined)).toBe(true);
  });

  it('publishes a reel with its cover image: cover_url is a presigned URL of the stored cover, fetched by Instagram', async () => {
    world = await startWorld({ processingPolls: { REELS: 0 } });
    const cover = storedMedia(world, 'image', { id: 'med_cover' });
    const request = aRequest(world, userToken(world), 'reel', [storedMedia(world, 'video')], {
      postOverrides: { platformOptions: { instagram: { coverImage: { id: 'med_cover' } } } },
      optionMedia: { coverImage: cover.delivered },
    });

    expect(await publishUntilSettled(world, request)).toMatchObject({ kind: 'published' });

    const [container] = world.fake.control.containers();
    expect(container?.params.cover_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(container?.params.thumb_offset).toBeUndefined();
    expect(world.fake.control.fetchedUrls()).toContain(container?.params.cover_url);
    expect(world.fake.control.media()[0]?.coverUrl).toBe(container?.params.cover_url);
  });

  it('refuses a PNG cover before any container is made (Instagram takes JPEG covers)', async () => {
    world = await startWorld();
    const cover = storedMedia(world, 'image', { bytes: pngBytes(), mimeType: 'image/png' });
    const request = aRequest(world, userToken(world), 'reel', [storedMedia(world, 'video')], {
      optionMedia: { coverImage: cover.delivered },
    });

    const outcome = await world.network.connector.publish(request);

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_TYPE_UNSUPPORTED' });
    expect(world.fake.control.containers()).toHaveLength(0);
  });

  it('a cover Instagram cannot fetch as a JPEG fails the post as Instagram refuses it (permanent, nothing published)', async () => {
    world = await startWorld();
    // Stored as JPEG, its bytes are not: only Instagram's fetch finds out.
    const cover = storedMedia(world, 'image', { bytes: pngBytes(), mimeType: 'image/jpeg' });
    const request = aRequest(world, userToken(world), 'reel', [storedMedia(world, 'video')], {
      optionMedia: { coverImage: cover.delivered },
    });

    const outcome = await world.network.connector.publish(request);

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent' });
    expect(world.fake.control.containers()).toHaveLength(0);
    expect(world.fake.control.media()).toHaveLength(0);
  });

  it('the fake enforces the documented rules: trial_params on reels only, a known strategy, never with share_to_feed; cover_url on reels only; no product_tags', async () => {
    world = await startWorld();
    const token = userToken(world);
    const image = { image_url: 'http://127.0.0.1:9/x.jpg' };
    const reel = { media_type: 'REELS', video_url: 'http://127.0.0.1:9/x.mp4' };
    const refused = [
      { ...image, trial_params: '{"graduation_strategy":"MANUAL"}' },
      { ...reel, trial_params: '{"graduation_strategy":"SOMETIMES"}' },
      { ...reel, trial_params: 'MANUAL' },
      { ...reel, trial_params: '{"graduation_strategy":"MANUAL"}', share_to_feed: 'true' },
      { ...image, cover_url: 'http://127.0.0.1:9/c.jpg' },
      { ...image, product_tags: '[{"product_id":"1","x":0.5,"y":0.5}]' },
    ];
    for (const params of refused) {
      const answer = await createContainer(world, token, params);
      expect(answer.status, JSON.stringify(params)).toBe(400);
      expect(answer.body.error?.code).toBe(100);
    }
    expect(world.fake.control.containers()).toHaveLength(0);
  });

  it('the connector never sends product_tags (it is not an option it has)', async () => {
    world = await startWorld();
    const request = aRequest(world, userToken(world), 'image', [storedMedia(world, 'image')], {
      postOverrides: { platformOptions: { instagram: { productTags: [{ productId: '1' }] } } },
    });
    const outcome = await world.network.connector.publish(request);
    expect(outcome).toMatchObject({ kind: 'published' });
    expect(world.fake.control.containers()[0]?.params.product_tags).toBeUndefined();
  });
});
