import { describe, expect, it } from 'vitest';
import { quotaDay } from '../../../shared/domain/account-quotas.js';
import { MAX_PENDING_CHECKS, MAX_PENDING_MS } from '../../../shared/domain/pending-policy.js';
import type { PublishProgress } from '../../../shared/ports/connector.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import { MAX_PROGRESS_BYTES } from '../../../shared/services/delivery/progress.js';
import { makeReconciler } from '../../../shared/services/delivery/reconcile.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  atDelivery,
  DELIVERY_NOW,
  POST_ID,
} from '../support/in-memory-delivery-ports.js';

const today = quotaDay(DELIVERY_NOW);
const uploaded: PublishProgress = { mediaIds: ['1146654567674912769'] };

async function setup() {
  const world = await aDeliveryWorld();
  const deliver = () => makeDeliverPost(world)(world.message);
  /** Moves the clock to the post's next attempt time and delivers it. */
  const deliverWhenDue = async () => {
    const due = (await world.stored()).delivery?.nextAttemptAt;
    if (due) world.clock.set(Date.parse(due));
    return deliver();
  };
  return { ...world, deliver, deliverWhenDue, used: () => world.quotas.used(ACCOUNT_ID, today) };
}

const failed = (code: string, progress?: PublishProgress) =>
  ({
    kind: 'fail',
    outcome: {
      kind: 'failed',
      failure: 'transient',
      code,
      message: 'The network answered 503.',
      ...(progress && { progress }),
    },
  }) as const;

describe('a post the network is processing (pending)', () => {
  it('goes back to the queue for a check after the network’s wait, keeping its progress and its quota', async () => {
    // Prepare
    const world = await setup();
    world.network.answer({ kind: 'pending', progress: uploaded, checkAfterSeconds: 20 });
    world.seedPost();

    // Act
    const result = await world.deliver();

    // Assess: no sleeping in the worker; the post waits in the queue, not on a lease.
    expect(result).toBe('pending');
    expect(world.clock.now()).toBe(DELIVERY_NOW);
    const post = await world.stored();
    expect(post).toMatchObject({ status: 'queued', attempts: 1 });
    expect(post.error).toBeUndefined();
    expect(post.delivery).toEqual({
      nextAttemptAt: atDelivery(20_000),
      lastAttemptAt: atDelivery(0),
      progress: JSON.stringify(uploaded),
      pending: { checks: 1, since: atDelivery(0), stage: 'media_processing', checkDue: true },
      quotaDay: today,
    });
    expect(await world.used()).toBe(1);
  });

  it('hands the progress to the next call, which continues the same attempt and reserves nothing more', async () => {
    // Prepare
    const world = await setup();
    world.network.answer({ kind: 'pending', progress: uploaded, checkAfterSeconds: 20 });
    world.seedPost();
    await world.deliver();

    // Act
    const result = await world.deliverWhenDue();

    // Assess
    expect(result).toBe('published');
    expect(world.network.requests.map((request) => [request.attempt, request.progress])).toEqual([
      [1, undefined],
      [1, uploaded],
    ]);
    const post = await world.stored();
    expect(post).toMatchObject({ status: 'published', attempts: 1 });
    expect(post.delivery).toEqual({ lastAttemptAt: atDelivery(20_000) });
    expect(await world.used()).toBe(1);
  });

  it('counts its checks and keeps the time of the first pending answer', async () => {
    const world = await setup();
    world.network.answer(
      { kind: 'pending', progress: uploaded, checkAfterSeconds: 30 },
      { kind: 'pending', progress: { ...uploaded, state: 'in_progress' }, checkAfterSeconds: 30 },
    );
    world.seedPost();
    await world.deliver();
    expect(await world.deliverWhenDue()).toBe('pending');
    expect((await world.stored()).delivery).toMatchObject({
      nextAttemptAt: atDelivery(60_000),
      progress: JSON.stringify({ ...uploaded, state: 'in_progress' }),
      pending: { checks: 2, since: atDelivery(0), checkDue: true },
    });
  });

  it(`fails PLATFORM_PROCESSING_TIMEOUT (retryable) after ${MAX_PENDING_CHECKS} checks, giving its quota back`, async () => {
    // Prepare: the network answered pending MAX_PENDING_CHECKS times already.
    const world = await setup();
    world.network.answer({ kind: 'pending', progress: uploaded, checkAfterSeconds: 5 });
    world.seedPost({
      attempts: 1,
      delivery: {
        nextAttemptAt: atDelivery(0),
        progress: JSON.stringify(uploaded),
        pending: {
          checks: MAX_PENDING_CHECKS,
          since: atDelivery(-10 * 60_000),
          stage: 'media_processing',
          checkDue: true,
        },
        quotaDay: today,
      },
    });
    await world.quotas.reserve(ACCOUNT_ID, today, 1, 10);

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('failed');
    const post = await world.stored();
    expect(post).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { origin: 'platform', code: 'PLATFORM_PROCESSING_TIMEOUT', retryable: true },
    });
    expect(post.delivery).toEqual({ lastAttemptAt: atDelivery(0) });
    expect(await world.used()).toBe(0);
  });

  it('fails PLATFORM_PROCESSING_TIMEOUT two hours after the first pending answer', async () => {
    const world = await setup();
    world.network.answer({ kind: 'pending', progress: uploaded, checkAfterSeconds: 5 });
    world.seedPost({
      attempts: 1,
      delivery: {
        progress: JSON.stringify(uploaded),
        pending: { checks: 3, since: atDelivery(-MAX_PENDING_MS), stage: 'media_processing', checkDue: true },
        quotaDay: today,
      },
    });
    expect(await world.deliver()).toBe('failed');
    expect((await world.stored()).error?.code).toBe('PLATFORM_PROCESSING_TIMEOUT');
  });

  it('a check that fails is a new attempt, retried with backoff, and keeps the pending count and the quota', async () => {
    // Prepare
    const world = await setup();
    world.network.answer(
      { kind: 'pending', progress: uploaded, checkAfterSeconds: 20 },
      failed('PLATFORM_ERROR'),
    );
    world.seedPost();
    await world.deliver();

    // Act
    const result = await world.deliverWhenDue();

    // Assess
    expect(result).toBe('retrying');
    const post = await world.stored();
    expect(post).toMatchObject({ status: 'queued', attempts: 1, error: { code: 'PLATFORM_ERROR' } });
    expect(post.delivery).toMatchObject({
      progress: JSON.stringify(uploaded),
      pending: { checks: 1, checkDue: false },
      quotaDay: today,
    });
    expect(await world.used()).toBe(1);

    // The retry counts as attempt 2 and still carries the progress.
    expect(await world.deliverWhenDue()).toBe('published');
    expect(world.network.requests.map((request) => [request.attempt, request.progress])).toEqual([
      [1, undefined],
      [1, uploaded],
      [2, uploaded],
    ]);
    expect(await world.used()).toBe(1);
  });

  it('gives the held reservation back when the account was disconnected while the network processed the post', async () => {
    const world = await setup();
    world.network.answer({ kind: 'pending', progress: uploaded, checkAfterSeconds: 20 });
    world.seedPost();
    await world.deliver();
    await world.tenancy.markAccountDisconnected(
      world.message.tenantId,
      world.message.workspaceId,
      ACCOUNT_ID,
      {
        at: atDelivery(1000),
        reason: 'revoked',
      },
    );

    expect(await world.deliverWhenDue()).toBe('failed');
    expect((await world.stored()).error?.code).toBe('account_disconnected');
    expect(await world.used()).toBe(0);
  });

  it('keeps a cancelled post’s reservation: the network has its media', async () => {
    const world = await setup();
    world.network.answer({ kind: 'pending', progress: uploaded, checkAfterSeconds: 20 });
    world.seedPost();
    await world.deliver();
    const waiting = await world.stored();
    await world.posts.update(
      { ...waiting, status: 'cancelled', version: waiting.version + 1 },
      waiting.version,
    );
    expect(await world.deliverWhenDue()).toBe('dropped');
    expect(world.network.requests).toHaveLength(1);
    expect(await world.used()).toBe(1);
  });
});

describe('progress with other outcomes', () => {
  it('a failure’s progress is kept and handed to the retry; a later failure without any keeps it', async () => {
    // Prepare: the first two items of a thread went out before the 503.
    const world = await setup();
    const twoPosted = { posted: ['1', '2'] };
    world.network.answer(failed('PLATFORM_ERROR', twoPosted), failed('PLATFORM_ERROR'));
    world.seedPost();

    // Act
    await world.deliver();
    await world.deliverWhenDue();
    const result = await world.deliverWhenDue();

    // Assess
    expect(result).toBe('published');
    expect(world.network.requests.map((request) => request.progress)).toEqual([
      undefined,
      twoPosted,
      twoPosted,
    ]);
    // A failure retry that never went pending gives its quota back and reserves again.
    expect(await world.used()).toBe(1);
  });

  it('an unknown outcome’s progress goes to the look-up, and to the retry when the network does not have the post', async () => {
    const world = await setup();
    const progress = { posted: ['1'] };
    world.network.answer({ kind: 'unknown', posted: false, progress });
    world.seedPost();

    expect(await world.deliver()).toBe('retrying');
    expect(world.network.lookups.map((lookup) => [lookup.clientReference, lookup.progress])).toEqual([
      [POST_ID, progress],
    ]);
    expect((await world.stored()).delivery?.progress).toBe(JSON.stringify(progress));
    await world.deliverWhenDue();
    expect(world.network.requests[1]?.progress).toEqual(progress);
  });

  it('fails a post whose connector returns more progress than a post may keep', async () => {
    const world = await setup();
    const huge = { ids: 'x'.repeat(MAX_PROGRESS_BYTES) };
    world.network.answer({ kind: 'pending', progress: huge, checkAfterSeconds: 5 });
    world.seedPost();
    expect(await world.deliver()).toBe('failed');
    expect((await world.stored()).error).toMatchObject({
      origin: 'service',
      code: 'connector_progress_too_large',
      retryable: false,
    });
    expect(await world.used()).toBe(0);
  });

  it('the reconciler looks a dead worker’s post up with its progress', async () => {
    const world = await setup();
    const progress = { mediaIds: ['9'] };
    world.seedPost({
      status: 'publishing',
      attempts: 1,
      delivery: { leaseId: 'dead', leaseUntil: atDelivery(-1000), progress: JSON.stringify(progress) },
    });
    await makeReconciler(world)();
    expect(world.network.lookups[0]?.progress).toEqual(progress);
    expect((await world.stored()).delivery?.progress).toBe(JSON.stringify(progress));
  });
});
