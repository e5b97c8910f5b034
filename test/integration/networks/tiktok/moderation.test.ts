import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_TIKTOK_DEFAULT_CREATOR,
  startTikTokFake,
  type TikTokFake,
} from '../../../../infra/fake-networks/tiktok/index.js';
import { deliveryEffects } from '../../../../shared/domain/delivery-effects.js';
import { mediaObjectKey } from '../../../../shared/domain/media.js';
import type { Post } from '../../../../shared/domain/posts.js';
import { makeTikTokNetwork } from '../../../../shared/networks/tiktok/index.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import { makeDeliverPost } from '../../../../shared/services/delivery/deliver-post.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  type DeliveryWorld,
  TENANT_ID,
  WORKSPACE_ID,
} from '../../../unit/support/in-memory-delivery-ports.js';

const CREATOR = FAKE_TIKTOK_DEFAULT_CREATOR;
const VIDEO = Buffer.from(Array.from({ length: 3 * 1024 }, (_, i) => i % 251));
const MEDIA_ID = 'med_01JD0000000000000000000000';
/** The world's time-outs are for in-memory networks; these calls go over loopback HTTP. */
const REAL_HTTP_TIMEOUTS = { connectorTimeoutMs: 10_000, lookupTimeoutMs: 10_000 };

/**
 * A public TikTok post that completes before moderation names it (TikTok's status page: the post
 * id comes only once moderation approves it, sometimes hours later): the worker, against the
 * fake over HTTP, publishes it without an id and says so, then asks again on its schedule and
 * fills the id in when moderation releases it.
 */
describe('a TikTok post whose id comes after moderation', () => {
  let fake: TikTokFake;
  afterEach(() => fake.stop());

  async function aWorld(): Promise<DeliveryWorld> {
    fake = await startTikTokFake({ settings: { processingPolls: 0 } });
    const network = makeTikTokNetwork({
      endpoints: {
        ...NETWORK_ENDPOINT_DEFAULTS,
        TIKTOK_API_URL: fake.apiUrl,
        TIKTOK_AUTHORIZE_URL: fake.authorizeUrl,
      },
      appCredentials: async () => ({ clientId: fake.clientId, clientSecret: fake.clientSecret }),
    });
    const world = await aDeliveryWorld({ networks: new Map([['tiktok', network]]) });
    await world.connectRealAccount(
      {
        accessToken: fake.control.issueToken(),
        scopes: ['user.info.basic', 'video.publish'],
        expiresAt: new Date(world.clock.now() + 24 * 3600 * 1000).toISOString(),
      },
      { platform: 'tiktok', handle: `@${CREATOR.username}`, networkUserId: CREATOR.openId },
    );
    const objectKey = mediaObjectKey(TENANT_ID, WORKSPACE_ID, MEDIA_ID);
    await world.storage.put(objectKey, VIDEO, 'video/mp4');
    await world.media.put({
      mediaId: MEDIA_ID,
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      filename: 'dance.mp4',
      mimeType: 'video/mp4',
      sizeBytes: VIDEO.length,
      status: 'uploaded',
      objectKey,
      createdAt: new Date(world.clock.now()).toISOString(),
    });
    world.seedPost({
      accountId: ACCOUNT_ID,
      platform: 'tiktok',
      postType: 'video',
      content: 'Dance #fyp',
      media: [{ id: MEDIA_ID }],
      platformOptions: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
    });
    return world;
  }

  it('publishes it without an id, says so, asks again a minute later and on a growing schedule, and fills in the id and URL once moderation names it', async () => {
    // Prepare
    const world = await aWorld();
    const deliverPost = makeDeliverPost({ ...world, ...REAL_HTTP_TIMEOUTS });
    fake.control.holdModeration();

    // Act: the publish completes at TikTok, moderation has not named it.
    expect(await deliverPost(world.message)).toBe('published');

    // Assess: published, no id or URL yet, the warning on it, a look-up a minute later.
    const published = await world.stored();
    expect(published).toMatchObject({
      status: 'published',
      warnings: [{ code: 'PLATFORM_POST_ID_PENDING' }],
    });
    expect(published.platformPostId).toBeUndefined();
    expect(published.platformPostUrl).toBeUndefined();
    expect(published.delivery?.postIdFollowUp).toMatchObject({
      checks: 0,
      nextCheckAt: new Date(world.clock.now() + 60_000).toISOString(),
    });
    expect(deliveryEffects(undefined, published, world.clock.now()).enqueue).toEqual({ delaySeconds: 60 });

    // A message before the time is put back; at the time, moderation still holds it: asked again later.
    const statusCalls = () => fake.control.seen().filter((s) => s.endpoint === 'status').length;
    const before = statusCalls();
    expect(await deliverPost(world.message)).toBe('held');
    expect(statusCalls()).toBe(before);
    world.clock.advance(60_000);
    expect(await deliverPost(world.message)).toBe('followed_up');
    const waiting = await world.stored();
    expect(statusCalls()).toBe(before + 1);
    expect(waiting.delivery?.postIdFollowUp).toMatchObject({
      checks: 1,
      nextCheckAt: new Date(world.clock.now() + 60_000).toISOString(),
    });
    world.clock.advance(60_000);
    expect(await deliverPost(world.message)).toBe('followed_up');
    expect((await world.stored()).delivery?.postIdFollowUp).toMatchObject({
      checks: 2,
      nextCheckAt: new Date(world.clock.now() + 120_000).toISOString(),
    });

    // Moderation approves: the next look-up names the post; it stays published, nothing posted twice.
    fake.control.releaseModeration();
    world.clock.advance(120_000);
    expect(await deliverPost(world.message)).toBe('followed_up');
    const named: Post = await world.stored();
    const [publish] = fake.control.publishes();
    expect(named).toMatchObject({
      status: 'published',
      platformPostId: publish?.postId,
      platformPostUrl: `https://www.tiktok.com/@${CREATOR.username}/video/${publish?.postId}`,
    });
    expect(named.warnings).toBeUndefined();
    expect(named.delivery?.postIdFollowUp).toBeUndefined();
    expect(fake.control.publishes()).toHaveLength(1);
    expect(fake.control.seen().filter((s) => s.endpoint === 'video_init')).toHaveLength(1);
    expect(await deliverPost(world.message)).toBe('dropped');
  });

  it('stops asking after three days and says the id never came', async () => {
    const world = await aWorld();
    const deliverPost = makeDeliverPost({ ...world, ...REAL_HTTP_TIMEOUTS });
    fake.control.holdModeration();
    await deliverPost(world.message);
    let rounds = 0;
    for (;;) {
      const followUp = (await world.stored()).delivery?.postIdFollowUp;
      if (!followUp) break;
      world.clock.set(Date.parse(followUp.nextCheckAt));
      await deliverPost(world.message);
      rounds += 1;
    }
    const ended = await world.stored();
    expect(ended.status).toBe('published');
    expect(ended.warnings?.map((w) => w.code)).toEqual(['PLATFORM_POST_ID_UNAVAILABLE']);
    // 1, 2, 4 … minutes, then every 4 hours, for three days.
    expect(rounds).toBeGreaterThan(15);
    expect(rounds).toBeLessThan(30);
  });
});
