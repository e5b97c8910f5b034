import { describe, expect, it } from 'vitest';
import type { Post } from '../../../shared/domain/posts.js';
import { makeReconciler, STUCK_AFTER_MS } from '../../../shared/services/delivery/reconcile.js';
import {
  aDeliveryWorld,
  atDelivery,
  FakeNetwork,
  POST_ID,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

/** A post as a worker that died mid-call leaves it: publishing, its lease ended a second ago. */
const abandoned: Partial<Post> = {
  status: 'publishing',
  attempts: 1,
  delivery: { leaseId: 'dead', leaseUntil: atDelivery(-1000), lastAttemptAt: atDelivery(-21_000) },
};

async function setup(options: { network?: FakeNetwork } = {}) {
  const world = await aDeliveryWorld(options);
  return { ...world, reconcile: makeReconciler(world) };
}

const EMPTY = { redriven: 0, leasesRecovered: 0, foundPublished: 0, failedUncertain: 0, failedExhausted: 0 };

describe('reconcile', () => {
  describe('a post whose worker died (lease run out)', () => {
    it('is published when the network has it, without posting again', async () => {
      // Prepare: the dead worker's call went through.
      const world = await setup();
      world.network.posts.push(POST_ID);
      world.seedPost(abandoned);

      // Act
      const report = await world.reconcile();

      // Assess
      expect(report).toEqual({ ...EMPTY, foundPublished: 1 });
      expect(await world.stored()).toMatchObject({
        status: 'published',
        attempts: 1,
        platformPostId: 'net-1',
        publishedAt: atDelivery(0),
        delivery: { lastAttemptAt: atDelivery(-21_000) },
      });
      expect(world.network.requests).toHaveLength(0);
      expect(world.metrics.points).toEqual([
        { name: 'PostsPublished', value: 1, unit: 'count', dimensions: { platform: 'twitter' } },
      ]);
    });

    it('is queued again (lease_expired), after backoff, when the network does not have it', async () => {
      const world = await setup();
      world.seedPost(abandoned);

      const report = await world.reconcile();

      expect(report).toEqual({ ...EMPTY, leasesRecovered: 1 });
      expect(await world.stored()).toMatchObject({
        status: 'queued',
        attempts: 1,
        error: { origin: 'service', code: 'delivery_interrupted', retryable: true },
        delivery: { nextAttemptAt: atDelivery(4000) },
      });
      expect((await world.stored()).delivery?.leaseId).toBeUndefined();
    });

    it('fails, delivery_interrupted, when it has no attempts left', async () => {
      const world = await setup();
      world.seedPost({ ...abandoned, attempts: 6 });

      const report = await world.reconcile();

      expect(report).toEqual({ ...EMPTY, failedExhausted: 1 });
      expect(await world.stored()).toMatchObject({
        status: 'failed',
        error: { code: 'delivery_interrupted', retryable: true },
      });
    });

    it('fails with delivery_uncertain when the network cannot tell, rather than risk a second post', async () => {
      const world = await setup({ network: new FakeNetwork({ canLookUp: false }) });
      world.seedPost(abandoned);

      const report = await world.reconcile();

      expect(report).toEqual({ ...EMPTY, failedUncertain: 1 });
      expect(await world.stored()).toMatchObject({
        status: 'failed',
        error: { origin: 'service', code: 'delivery_uncertain', retryable: true },
      });
      expect(world.metrics.points).toContainEqual(
        expect.objectContaining({
          name: 'PostsFailed',
          dimensions: { platform: 'twitter', code: 'delivery_uncertain' },
        }),
      );
    });

    it('is left alone while its lease runs: the worker may be alive and renewing it', async () => {
      const world = await setup();
      const live = world.seedPost({
        ...abandoned,
        delivery: { leaseId: 'alive', leaseUntil: atDelivery(5000) },
      });

      expect(await world.reconcile()).toEqual(EMPTY);
      expect(await world.stored()).toEqual(live);
    });

    it('is left to the worker that renewed its lease in the meantime (its write wins)', async () => {
      // Prepare: read as expired, then renewed before the reconciler writes.
      const world = await setup();
      const post = world.seedPost(abandoned);
      const renewed = { ...post, version: 2, delivery: { ...post.delivery, leaseUntil: atDelivery(20_000) } };
      world.posts.beforeNextUpdate(() => world.posts.update(renewed, 1));

      // Act
      const report = await world.reconcile();

      // Assess
      expect(report).toEqual(EMPTY);
      expect(await world.stored()).toEqual(renewed);
    });

    it('logs what it took back, with the post’s ids', async () => {
      const world = await setup();
      world.seedPost(abandoned);
      await world.reconcile();
      const line = world.logger.entries.find((entry) => entry.message.startsWith('taking back'));
      expect(line?.fields).toMatchObject({
        tenantId: TENANT_ID,
        workspaceId: WORKSPACE_ID,
        postId: POST_ID,
        attempt: 1,
      });
      expect(world.logger.entries.find((entry) => entry.message === 'reconciled')?.fields).toMatchObject({
        leasesRecovered: 1,
      });
    });
  });

  describe('a message that was lost', () => {
    it('is sent again for a post queued or scheduled more than two minutes ago, not sooner', async () => {
      // Prepare
      const world = await setup();
      world.seedPost({ postId: 'pst_stuck_queued', updatedAt: atDelivery(-STUCK_AFTER_MS - 1000) });
      world.seedPost({
        postId: 'pst_stuck_scheduled',
        status: 'scheduled',
        scheduledAt: atDelivery(-STUCK_AFTER_MS - 1000),
      });
      world.seedPost({ postId: 'pst_recent', updatedAt: atDelivery(-60_000) });

      // Act
      const report = await world.reconcile();

      // Assess
      expect(report).toEqual({ ...EMPTY, redriven: 2 });
      expect(world.deliveryQueue.sent.map(({ message }) => message.postId).sort()).toEqual([
        'pst_stuck_queued',
        'pst_stuck_scheduled',
      ]);
      expect(world.deliveryQueue.sent.every(({ delaySeconds }) => delaySeconds === 0)).toBe(true);
    });

    it('after a restart that lost every message: sent at once for all due within 15 minutes, delayed to their time', async () => {
      // Prepare
      const world = await setup();
      world.seedPost({ postId: 'pst_due_now', updatedAt: atDelivery(-1000) });
      world.seedPost({ postId: 'pst_soon', status: 'scheduled', scheduledAt: atDelivery(90_500) });
      world.seedPost({ postId: 'pst_retry', delivery: { nextAttemptAt: atDelivery(30_000) } });
      world.seedPost({ postId: 'pst_far', status: 'scheduled', scheduledAt: atDelivery(16 * 60_000) });

      // Act
      const report = await world.reconcile({ messagesLost: true });

      // Assess: the far post has a schedule of its own.
      expect(report).toEqual({ ...EMPTY, redriven: 3 });
      const delays = Object.fromEntries(
        world.deliveryQueue.sent.map(({ message, delaySeconds }) => [message.postId, delaySeconds]),
      );
      expect(delays).toEqual({ pst_due_now: 0, pst_soon: 91, pst_retry: 30 });
    });

    it('logs nothing above debug when there was nothing to do', async () => {
      const world = await setup();
      await world.reconcile();
      expect(world.logger.entries.filter((entry) => entry.level !== 'debug')).toEqual([]);
    });
  });
});
