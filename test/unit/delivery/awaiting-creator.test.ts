import { describe, expect, it } from 'vitest';
import { quotaDay } from '../../../shared/domain/account-quotas.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import { makeReconciler } from '../../../shared/services/delivery/reconcile.js';
import { ACCOUNT_ID, aDeliveryWorld, atDelivery, DELIVERY_NOW } from '../support/in-memory-delivery-ports.js';

const today = quotaDay(DELIVERY_NOW);
const textNotSent = {
  code: 'TEXT_NOT_SENT_TO_INBOX',
  message: "The post's text was not sent to the creator's inbox.",
};

async function setup() {
  const world = await aDeliveryWorld();
  return {
    ...world,
    deliver: () => makeDeliverPost(world)(world.message),
    used: () => world.quotas.used(ACCOUNT_ID, today),
  };
}

describe("a post the network takes as a draft in the creator's inbox (awaiting_creator)", () => {
  it('ends awaiting_creator with its warnings, no id, no metrics, its comment waiting, and its quota kept', async () => {
    // Prepare
    const world = await setup();
    world.network.answer({ kind: 'hand_over', warnings: [textNotSent] });
    world.seedPost({
      firstComment: { text: 'Link in bio', status: 'waiting', attempts: 0 },
      error: { origin: 'platform', code: 'PLATFORM_ERROR', message: 'An earlier 503.', retryable: true },
    });

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('awaiting_creator');
    const post = await world.stored();
    expect(post).toMatchObject({ status: 'awaiting_creator', attempts: 1, warnings: [textNotSent] });
    expect(post.firstComment).toEqual({ text: 'Link in bio', status: 'waiting', attempts: 0 });
    for (const absent of ['platformPostId', 'platformPostUrl', 'publishedAt', 'metrics', 'error'] as const) {
      expect(post).not.toHaveProperty(absent);
    }
    expect(post.delivery).toEqual({ lastAttemptAt: atDelivery(0) });
    expect(await world.used()).toBe(1);
    expect(world.metrics.points.map((point) => point.name)).toContain('PostsAwaitingCreator');
    expect(world.metrics.points.map((point) => point.name)).not.toContain('PostsPublished');
    expect(world.metrics.points.map((point) => point.name)).not.toContain('PostsFailed');
  });

  it('is found awaiting_creator by the look-up after an unknown outcome, and never sent again', async () => {
    // Prepare
    const world = await setup();
    world.network.answer({ kind: 'unknown', posted: false, progress: { publishId: 'p_1' } });
    world.network.lookup = 'awaiting_creator';
    world.seedPost();

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('awaiting_creator');
    expect(world.network.requests).toHaveLength(1);
    expect(world.network.lookups).toHaveLength(1);
    const post = await world.stored();
    expect(post.status).toBe('awaiting_creator');
    expect(post).not.toHaveProperty('warnings');
    expect(await world.used()).toBe(1);
  });

  it("is what the reconciler writes when a dead worker's post is found in the creator's inbox", async () => {
    // Prepare: a worker claimed the post and died while it was publishing.
    const world = await setup();
    world.network.lookup = 'awaiting_creator';
    world.seedPost({
      status: 'publishing',
      attempts: 1,
      delivery: { leaseUntil: atDelivery(-1000), lastAttemptAt: atDelivery(-60_000) },
    });

    // Act
    await makeReconciler(world)();

    // Assess
    const post = await world.stored();
    expect(post.status).toBe('awaiting_creator');
    expect(world.network.requests).toHaveLength(0);
  });
});
