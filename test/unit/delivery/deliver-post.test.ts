import { describe, expect, it, vi } from 'vitest';
import { quotaDay } from '../../../shared/domain/account-quotas.js';
import { ALIGNED_ARRIVAL_MS } from '../../../shared/domain/delivery-effects.js';
import type { Post } from '../../../shared/domain/posts.js';
import type { Account } from '../../../shared/domain/tenancy.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import { aMedia } from '../support/builders.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  atDelivery,
  DELIVERY_NOW,
  type DeliveryWorld,
  FakeNetwork,
  fakeMediaFetcher,
  POST_ID,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

const today = quotaDay(DELIVERY_NOW);

async function setup(options: { network?: FakeNetwork } = {}) {
  const world = await aDeliveryWorld(options);
  const deliver = (overrides: Partial<Parameters<typeof makeDeliverPost>[0]> = {}) =>
    makeDeliverPost({ ...world, ...overrides })(world.message);
  return { ...world, deliver, used: () => world.quotas.used(ACCOUNT_ID, today) };
}

const metricNames = (world: DeliveryWorld) => world.metrics.points.map((point) => point.name);

describe('deliver a post', () => {
  describe('1. hold until due', () => {
    it.each(['draft', 'publishing', 'published', 'cancelled'] as const)(
      'drops the message of a %s post without touching it',
      async (status) => {
        // Prepare
        const world = await setup();
        const post = world.seedPost({ status });

        // Act
        const result = await world.deliver();

        // Assess
        expect(result).toBe('dropped');
        expect(await world.stored()).toEqual(post);
        expect(world.network.requests).toHaveLength(0);
      },
    );

    it('drops the message of a post that does not exist', async () => {
      const world = await setup();
      expect(await world.deliver()).toBe('dropped');
    });

    it('puts an early message back, delayed to just before the post’s time', async () => {
      // Prepare
      const world = await setup();
      const post = world.seedPost({ status: 'scheduled', scheduledAt: atDelivery(10 * 60_000) });

      // Act
      const result = await world.deliver();

      // Assess: sent once the whole seconds plus the margin were left (hold-until-due.test.ts).
      expect(result).toBe('held');
      expect(world.deliveryQueue.sent).toEqual([{ message: world.message, delaySeconds: 599 }]);
      expect(world.clock.now() + 599_000).toBe(DELIVERY_NOW + 10 * 60_000 - ALIGNED_ARRIVAL_MS);
      expect(await world.stored()).toEqual(post);
    });

    it('drops a message more than 15 minutes early: the post has a schedule of its own', async () => {
      const world = await setup();
      world.seedPost({ status: 'scheduled', scheduledAt: atDelivery(16 * 60_000) });
      expect(await world.deliver()).toBe('dropped');
      expect(world.deliveryQueue.sent).toHaveLength(0);
    });

    it('waits in place when less than a second early, then publishes, never before its time', async () => {
      // Prepare
      const world = await setup();
      world.seedPost({ status: 'scheduled', scheduledAt: atDelivery(700) });

      // Act
      const result = await world.deliver();

      // Assess: the injected sleep moved the clock to the post's time before the network call.
      expect(result).toBe('published');
      expect(world.clock.now()).toBe(DELIVERY_NOW + 700);
      expect((await world.stored()).publishedAt).toBe(atDelivery(700));
    });

    it('holds a retry until its next attempt time', async () => {
      const world = await setup();
      world.seedPost({ delivery: { nextAttemptAt: atDelivery(30_000) } });
      expect(await world.deliver()).toBe('held');
      expect(world.deliveryQueue.sent[0]?.delaySeconds).toBe(29);
      expect(world.clock.now() + 29_000).toBe(DELIVERY_NOW + 30_000 - ALIGNED_ARRIVAL_MS);
    });
  });

  describe('2. claim', () => {
    it('drops the message when another worker claims the post first', async () => {
      // Prepare: between this worker's read and its claim, another one claims the post.
      const world = await setup();
      const post = world.seedPost();
      world.posts.beforeNextUpdate(() =>
        world.posts.update({ ...post, status: 'publishing', attempts: 1, version: 2 }, 1),
      );

      // Act
      const result = await world.deliver();

      // Assess
      expect(result).toBe('dropped');
      expect(world.network.requests).toHaveLength(0);
      expect(await world.used()).toBe(0);
    });

    it('claims through the lifecycle table (scheduled → queued → publishing) with a lease and an attempt', async () => {
      // Prepare: the network call is where the claimed post can be seen.
      const world = await setup();
      world.seedPost({ status: 'scheduled', scheduledAt: atDelivery(0) });
      let claimed: Post | undefined;
      world.network.publish = async (request) => {
        claimed = await world.stored();
        return FakeNetwork.prototype.publish.call(world.network, request);
      };

      // Act
      await world.deliver({ leaseMs: 20_000 });

      // Assess
      expect(claimed).toMatchObject({
        status: 'publishing',
        attempts: 1,
        version: 2,
        delivery: { leaseUntil: atDelivery(20_000), lastAttemptAt: atDelivery(0) },
      });
      expect(claimed?.delivery?.leaseId).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('3. reserve quota', () => {
    it.each([
      ['disconnected', 'account_disconnected'],
      ['deleted', 'account_not_found'],
    ])('fails a post whose account is %s, without calling the network', async (state, code) => {
      // Prepare
      const world = await setup();
      if (state === 'disconnected') {
        world.seedPost();
        await world.tenancy.markAccountDisconnected(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID, {
          at: atDelivery(0),
          reason: 'revoked',
        });
      } else {
        world.seedPost({ accountId: 'acc_01JD0000000000000000000404' });
      }

      // Act
      const result = await world.deliver();

      // Assess
      expect(result).toBe('failed');
      expect(await world.stored()).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { origin: 'service', code, retryable: false },
      });
      expect(world.network.requests).toHaveLength(0);
      expect(world.metrics.points).toContainEqual(
        expect.objectContaining({ name: 'PostsFailed', dimensions: { platform: 'twitter', code } }),
      );
    });

    it('fails a post past the account’s daily ceiling, retryable, and leaves the count as it was', async () => {
      // Prepare: the short-message network's 2,400 posts a day are used up.
      const world = await setup();
      world.seedPost();
      await world.quotas.reserve(ACCOUNT_ID, today, 2400, 2400);

      // Act
      const result = await world.deliver();

      // Assess
      expect(result).toBe('failed');
      expect((await world.stored()).error).toMatchObject({
        origin: 'service',
        code: 'DAILY_QUOTA_EXCEEDED',
        retryable: true,
      });
      expect(world.network.requests).toHaveLength(0);
      expect(await world.used()).toBe(2400);
    });
  });

  describe('4. resolve media', () => {
    it('fails a post whose stored media was deleted, and gives the quota back', async () => {
      const world = await setup();
      world.seedPost({ postType: 'image', media: [{ id: 'med_gone' }] });
      expect(await world.deliver()).toBe('failed');
      expect((await world.stored()).error).toMatchObject({ code: 'media_not_found', retryable: false });
      expect(await world.used()).toBe(0);
      expect(world.network.requests).toHaveLength(0);
    });

    it('hands the network stored media with its kind', async () => {
      const world = await setup();
      const image = aMedia({ tenantId: TENANT_ID, workspaceId: WORKSPACE_ID });
      await world.media.put(image);
      world.seedPost({ postType: 'image', media: [{ id: image.mediaId, alt: 'A cat' }] });
      expect(await world.deliver()).toBe('published');
      expect(world.network.requests[0]?.media).toEqual([{ kind: 'image', stored: image, alt: 'A cat' }]);
    });

    it('fetches URL media and stores it before the network sees it', async () => {
      // Prepare
      const world = await setup();
      const bytes = Buffer.from('png bytes');
      const fetchMedia = fakeMediaFetcher({
        'https://cdn.example.com/cat.png': {
          bytes,
          contentType: 'image/png',
          finalUrl: 'https://cdn.example.com/cat.png',
        },
      });
      world.seedPost({
        postType: 'image',
        media: [{ url: 'https://cdn.example.com/cat.png', type: 'image' }],
      });

      // Act
      const result = await world.deliver({ fetchMedia });

      // Assess
      expect(result).toBe('published');
      const key = `t/${TENANT_ID}/w/${WORKSPACE_ID}/p/${POST_ID}/0`;
      expect(await world.storage.get(key)).toEqual(bytes);
      expect(world.network.requests[0]?.media[0]).toMatchObject({
        kind: 'image',
        url: 'https://cdn.example.com/cat.png',
        stored: { objectKey: key, mimeType: 'image/png', sizeBytes: bytes.length, filename: 'cat.png' },
      });
    });

    it('queues again a post whose media host is down (transient), with the error shown', async () => {
      const world = await setup();
      const fetchMedia = fakeMediaFetcher({
        'https://cdn.example.com/cat.png': { code: 'media_fetch_timeout', transient: true },
      });
      world.seedPost({
        postType: 'image',
        media: [{ url: 'https://cdn.example.com/cat.png', type: 'image' }],
      });
      expect(await world.deliver({ fetchMedia })).toBe('retrying');
      expect(await world.stored()).toMatchObject({
        status: 'queued',
        error: { origin: 'service', code: 'media_fetch_timeout', retryable: true },
      });
      expect(world.network.requests).toHaveLength(0);
      expect(await world.used()).toBe(0);
    });

    it('fails a post whose media URL is refused, not retryable', async () => {
      const world = await setup();
      const fetchMedia = fakeMediaFetcher({ 'https://10.0.0.1/x.png': { code: 'media_url_blocked' } });
      world.seedPost({ postType: 'image', media: [{ url: 'https://10.0.0.1/x.png', type: 'image' }] });
      expect(await world.deliver({ fetchMedia })).toBe('failed');
      expect((await world.stored()).error).toMatchObject({
        origin: 'service',
        code: 'media_url_blocked',
        retryable: false,
      });
    });
  });

  describe('5. publish and 6. settle', () => {
    it('publishes: the network’s id and URL, the quota kept, counted, logged with the post’s ids', async () => {
      // Prepare
      const world = await setup();
      world.seedPost({ error: { origin: 'platform', code: 'X', message: 'earlier', retryable: true } });

      // Act
      const result = await world.deliver();

      // Assess
      expect(result).toBe('published');
      const post = await world.stored();
      expect(post).toMatchObject({
        status: 'published',
        attempts: 1,
        publishedAt: atDelivery(0),
        platformPostId: 'net-1',
        platformPostUrl: `https://network.example/${POST_ID}/1`,
        delivery: { lastAttemptAt: atDelivery(0) },
      });
      expect(post.error).toBeUndefined();
      expect(world.network.posts).toEqual([POST_ID]);
      expect(world.network.requests[0]).toMatchObject({ attempt: 1, clientReference: POST_ID });
      expect(await world.used()).toBe(1);
      expect(world.metrics.points).toEqual([
        { name: 'PostsPublished', value: 1, unit: 'count', dimensions: { platform: 'twitter' } },
      ]);
      expect(world.logger.entries.find((line) => line.message === 'post published')?.fields).toMatchObject({
        tenantId: TENANT_ID,
        workspaceId: WORKSPACE_ID,
        postId: POST_ID,
        attempt: 1,
      });
    });

    it('measures a scheduled post’s start delay, from scheduledAt to the network call', async () => {
      // Prepare: the message arrives 3 s late.
      const world = await setup();
      world.seedPost({ status: 'scheduled', scheduledAt: atDelivery(-3000) });

      // Act
      await world.deliver();

      // Assess
      expect(world.metrics.points).toContainEqual({
        name: 'ScheduledStartDelay',
        value: 3000,
        unit: 'milliseconds',
        dimensions: { platform: 'twitter' },
      });
    });

    it('does not measure a start delay for a post published now', async () => {
      const world = await setup();
      world.seedPost();
      await world.deliver();
      expect(metricNames(world)).not.toContain('ScheduledStartDelay');
    });

    it('fails a post without a connector for its network, retryable, and gives the quota back', async () => {
      const world = await setup();
      await world.tenancy.putAccount({
        ...((await world.tenancy.getAccount(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID)) as Account),
        sandbox: false,
      });
      world.seedPost();
      expect(await world.deliver()).toBe('failed');
      expect((await world.stored()).error).toMatchObject({ code: 'connector_unavailable', retryable: true });
      expect(await world.used()).toBe(0);
    });

    it('fails a permanent refusal at once, not retryable, and gives the quota back', async () => {
      // Prepare
      const world = await setup();
      world.network.answer({
        kind: 'fail',
        outcome: {
          kind: 'failed',
          failure: 'permanent',
          code: 'PLATFORM_REJECTED',
          message: 'Duplicate content.',
          platformRawCode: '403',
        },
      });
      world.seedPost();

      // Act
      const result = await world.deliver();

      // Assess
      expect(result).toBe('failed');
      expect(await world.stored()).toMatchObject({
        status: 'failed',
        error: {
          origin: 'platform',
          code: 'PLATFORM_REJECTED',
          message: 'Duplicate content.',
          platformRawCode: '403',
          retryable: false,
        },
      });
      expect(await world.used()).toBe(0);
      expect(world.metrics.points).toContainEqual(
        expect.objectContaining({
          name: 'PostsFailed',
          dimensions: { platform: 'twitter', code: 'PLATFORM_REJECTED' },
        }),
      );
    });

    it('queues a transient failure again after backoff, with the error shown', async () => {
      // Prepare: jitter 0.5 of a 5 s ceiling on the first attempt: ceil(2.5 + 1.25) = 4 s.
      const world = await setup();
      world.network.answer({
        kind: 'fail',
        outcome: { kind: 'failed', failure: 'transient', code: 'PLATFORM_UNAVAILABLE', message: '503' },
      });
      world.seedPost();

      // Act
      const result = await world.deliver();

      // Assess
      expect(result).toBe('retrying');
      expect(await world.stored()).toMatchObject({
        status: 'queued',
        attempts: 1,
        error: { origin: 'platform', code: 'PLATFORM_UNAVAILABLE', retryable: true },
        delivery: { nextAttemptAt: atDelivery(4000), lastAttemptAt: atDelivery(0) },
      });
      expect(await world.used()).toBe(0);
      expect(metricNames(world)).toEqual([]);
    });

    it('fails a transient failure on the last attempt, retryable', async () => {
      const world = await setup();
      world.network.answer({
        kind: 'fail',
        outcome: { kind: 'failed', failure: 'transient', code: 'PLATFORM_UNAVAILABLE', message: '503' },
      });
      world.seedPost({ attempts: 5 });
      expect(await world.deliver()).toBe('failed');
      expect(await world.stored()).toMatchObject({
        status: 'failed',
        attempts: 6,
        error: { code: 'PLATFORM_UNAVAILABLE', retryable: true },
      });
    });

    it('queues a rate-limited post after the network’s wait, remembering when the limit began', async () => {
      // Prepare: the network asks for 60 s; jitter 0.5 adds 10 %.
      const world = await setup();
      const rateLimited = {
        kind: 'fail' as const,
        outcome: {
          kind: 'failed' as const,
          failure: 'rate_limited' as const,
          code: 'RATE_LIMITED',
          message: 'Slow down.',
          platformRawCode: '429',
          retryAfterSeconds: 60,
        },
      };
      world.network.answer(rateLimited);
      world.seedPost();

      // Act
      const result = await world.deliver();

      // Assess
      expect(result).toBe('retrying');
      expect((await world.stored()).delivery).toMatchObject({
        nextAttemptAt: atDelivery(66_000),
        rateLimitedSince: atDelivery(0),
      });

      // Act again, 15 minutes on: still limited, the window is over.
      world.clock.advance(15 * 60_000);
      world.network.answer(rateLimited);
      const again = await world.deliver();

      // Assess
      expect(again).toBe('failed');
      expect(await world.stored()).toMatchObject({
        status: 'failed',
        attempts: 2,
        error: { origin: 'platform', code: 'RATE_LIMITED', platformRawCode: '429', retryable: true },
      });
    });

    it('fails a post whose token was revoked and disconnects the account', async () => {
      const world = await setup();
      world.network.answer({
        kind: 'fail',
        outcome: { kind: 'failed', failure: 'auth_revoked', code: 'TOKEN_REVOKED', message: 'Revoked.' },
      });
      world.seedPost();
      expect(await world.deliver()).toBe('failed');
      expect((await world.stored()).error).toMatchObject({ code: 'TOKEN_REVOKED', retryable: false });
      expect(await world.tenancy.getAccount(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID)).toMatchObject({
        status: 'disconnected',
        disconnectedAt: atDelivery(0),
        disconnectReason: 'Revoked.',
      });
    });
  });

  describe('an unknown outcome: looked up, never blindly retried', () => {
    it('a network that hangs past the time-out, then succeeds: one post, published on the first attempt', async () => {
      // Prepare: the network makes the post at once and answers only when released.
      const world = await setup();
      world.network.answer({ kind: 'hang', posted: true });
      world.seedPost();

      // Act: the worker gives up at its time-out (30 ms here) and looks the post up.
      const result = await world.deliver();

      // Assess
      expect(result).toBe('published');
      expect(await world.stored()).toMatchObject({
        status: 'published',
        attempts: 1,
        platformPostId: 'net-1',
      });
      expect(world.network.requests[0]?.signal.aborted).toBe(true);
      expect(world.network.requests[0]?.signal.reason).toMatchObject({ name: 'ConnectorTimeoutError' });

      // Act: the late answer arrives, and SQS hands the message out again.
      world.network.release();
      const redelivered = await world.deliver();

      // Assess: still one post on the network, nothing written twice.
      expect(redelivered).toBe('dropped');
      expect(world.network.posts).toEqual([POST_ID]);
      expect(await world.stored()).toMatchObject({ status: 'published', attempts: 1, version: 3 });
      expect(await world.used()).toBe(1);
    });

    it('not on the network after a time-out: a failed attempt, queued again with PLATFORM_TIMEOUT', async () => {
      // Prepare: the request is still travelling when the worker gives up; the abort stops it.
      const world = await setup();
      world.network.answer({ kind: 'until_aborted' });
      world.seedPost();

      // Act
      const result = await world.deliver();

      // Assess
      expect(result).toBe('retrying');
      expect(await world.stored()).toMatchObject({
        status: 'queued',
        error: { origin: 'platform', code: 'PLATFORM_TIMEOUT', retryable: true },
        delivery: { nextAttemptAt: atDelivery(4000) },
      });
      expect(world.network.posts).toEqual([]);
      expect(await world.used()).toBe(0);
    });

    it('a connection reset after the post was made: found, published', async () => {
      const world = await setup();
      world.network.answer({ kind: 'unknown', posted: true });
      world.seedPost();
      expect(await world.deliver()).toBe('published');
      expect(world.network.posts).toEqual([POST_ID]);
    });

    it('a connector that throws is an unknown outcome too: looked up, not retried blindly', async () => {
      const world = await setup();
      world.network.answer({ kind: 'throw', posted: true });
      world.seedPost();
      expect(await world.deliver()).toBe('published');
      expect(world.network.posts).toEqual([POST_ID]);
      expect(world.logger.entries.map((line) => line.message)).toContain(
        'the connector threw; the outcome is unknown',
      );
    });

    it.each([
      ['cannot look posts up', { canLookUp: false }, 'ledger'],
      ['fails to look it up', {}, 'throw'],
      ['does not answer the look-up in time', {}, 'hang'],
    ] as const)(
      'a network that %s: failed, delivery_uncertain, retryable, quota kept',
      async (_what, networkOptions, lookup) => {
        // Prepare
        const network = new FakeNetwork(networkOptions);
        network.lookup = lookup;
        const world = await setup({ network });
        world.network.answer({ kind: 'unknown', posted: true });
        world.seedPost();

        // Act
        const result = await world.deliver();

        // Assess
        expect(result).toBe('uncertain');
        expect(await world.stored()).toMatchObject({
          status: 'failed',
          error: { origin: 'service', code: 'delivery_uncertain', retryable: true },
        });
        expect(world.network.posts).toEqual([POST_ID]);
        expect(await world.used()).toBe(1);
        expect(world.metrics.points).toContainEqual(
          expect.objectContaining({
            name: 'PostsFailed',
            dimensions: { platform: 'twitter', code: 'delivery_uncertain' },
          }),
        );
      },
    );
  });

  describe('the lease', () => {
    it('is renewed while the network call runs, and the outcome is still written', async () => {
      // Prepare: a 40 ms lease is renewed every 10 ms; the network answers when the test says.
      const world = await setup();
      world.network.answer({ kind: 'hang', posted: true });
      world.seedPost();
      const delivering = world.deliver({ leaseMs: 40, connectorTimeoutMs: 60_000 });
      await vi.waitFor(() => expect(world.network.requests).toHaveLength(1));

      // Act: time passes during the call; renewals follow it.
      world.clock.advance(5000);
      await vi.waitFor(async () => {
        const held = await world.stored();
        expect(held.version).toBeGreaterThanOrEqual(4);
        expect(held.delivery?.leaseUntil).toBe(atDelivery(5040));
      });
      world.network.release();

      // Assess: the worker's final write is conditioned on the renewed version, and lands.
      expect(await delivering).toBe('published');
      expect(await world.stored()).toMatchObject({
        status: 'published',
        attempts: 1,
        platformPostId: 'net-1',
      });
    });

    it('lost (the post was taken back): the call is aborted and nothing is written', async () => {
      // Prepare
      const world = await setup();
      world.network.answer({ kind: 'until_aborted' });
      world.seedPost();
      const delivering = world.deliver({ leaseMs: 40, connectorTimeoutMs: 60_000 });
      await vi.waitFor(() => expect(world.network.requests).toHaveLength(1));

      // Act: the reconciler takes the post back (its own write moves the version on).
      const held = await world.stored();
      const takenBack = { ...held, status: 'queued' as const, version: held.version + 1 };
      await world.posts.update(takenBack, held.version);

      // Assess
      expect(await delivering).toBe('dropped');
      expect(world.network.requests[0]?.signal.reason).toMatchObject({ name: 'LeaseLostError' });
      expect(await world.stored()).toEqual(takenBack);
      expect(world.network.posts).toEqual([]);
      expect(await world.used()).toBe(0);
    });
  });
});
