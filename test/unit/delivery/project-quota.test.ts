import { describe, expect, it } from 'vitest';
import {
  PROJECT_QUOTA_COUNTERS,
  quotaDay,
  withQuotaOverrides,
} from '../../../shared/domain/account-quotas.js';
import type { Account } from '../../../shared/domain/tenancy.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  atDelivery,
  DELIVERY_NOW,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

const today = quotaDay(DELIVERY_NOW);
const PROJECT = 'youtube-project';
const OTHER_ACCOUNT = 'acc_01JD0000000000000000000999';

/** The world's (sandbox) account as a YouTube channel, with a project of 5,000 units, 1,600 an upload. */
async function youTubeWorld() {
  const world = await aDeliveryWorld();
  const account = (await world.tenancy.getAccount(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID)) as Account;
  await world.tenancy.putAccount({ ...account, platform: 'youtube' });
  const deps = { ...world, dailyQuotas: withQuotaOverrides({ youtube: { limit: 5000, costPerPost: 1600 } }) };
  const deliver = () => makeDeliverPost(deps)(world.message);
  const seedVideo = (overrides: Parameters<typeof world.seedPost>[0] = {}) =>
    world.seedPost({ platform: 'youtube', postType: 'video', ...overrides });
  const used = (counter: string) => world.quotas.used(counter, today);
  return { ...world, deliver, seedVideo, used };
}

/** A video YouTube is processing: its upload reserved on the account's and the project's counters. */
async function seedProcessingVideo(world: Awaited<ReturnType<typeof youTubeWorld>>): Promise<void> {
  await world.quotas.reserve(ACCOUNT_ID, today, 1600, 5000);
  await world.quotas.reserve(PROJECT, today, 1600, 5000);
  world.seedVideo({
    attempts: 1,
    delivery: {
      progress: JSON.stringify({ videoId: 'v1' }),
      pending: { checks: 1, since: atDelivery(-60_000), stage: 'media_processing', checkDue: true },
      quotaDay: today,
    },
  });
}

describe('the YouTube project quota, shared by every account', () => {
  it('counts YouTube, and only YouTube, per project, under one fixed counter name', () => {
    expect(PROJECT_QUOTA_COUNTERS).toEqual({ youtube: PROJECT });
  });

  it('counts a published video on the account and on the project', async () => {
    const world = await youTubeWorld();
    world.seedVideo();

    expect(await world.deliver()).toBe('published');

    expect(await world.used(ACCOUNT_ID)).toBe(1600);
    expect(await world.used(PROJECT)).toBe(1600);
  });

  it('fails PROJECT_QUOTA_EXCEEDED, retryable, when other accounts used the project, giving the account its units back', async () => {
    // Prepare: another channel used 4,000 of the project's 5,000; this one has all of its own left.
    const world = await youTubeWorld();
    await world.quotas.reserve(OTHER_ACCOUNT, today, 4000, 5000);
    await world.quotas.reserve(PROJECT, today, 4000, 5000);
    world.seedVideo();

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('failed');
    const { error } = await world.stored();
    expect(error).toMatchObject({ origin: 'service', code: 'PROJECT_QUOTA_EXCEEDED', retryable: true });
    expect(error?.message).toContain('project');
    expect(world.network.requests).toHaveLength(0);
    expect(await world.used(ACCOUNT_ID)).toBe(0);
    expect(await world.used(PROJECT)).toBe(4000);
  });

  it('fails DAILY_QUOTA_EXCEEDED when the account is out of units, leaving the project untouched', async () => {
    const world = await youTubeWorld();
    await world.quotas.reserve(ACCOUNT_ID, today, 4000, 5000);
    world.seedVideo();

    expect(await world.deliver()).toBe('failed');

    expect((await world.stored()).error).toMatchObject({ code: 'DAILY_QUOTA_EXCEEDED', retryable: true });
    expect(await world.used(ACCOUNT_ID)).toBe(4000);
    expect(await world.used(PROJECT)).toBe(0);
  });

  it('gives back both reservations when the network refuses the video', async () => {
    const world = await youTubeWorld();
    world.network.answer({
      kind: 'fail',
      outcome: { kind: 'failed', failure: 'permanent', code: 'PLATFORM_REJECTED', message: 'No.' },
    });
    world.seedVideo();

    expect(await world.deliver()).toBe('failed');

    expect(await world.used(ACCOUNT_ID)).toBe(0);
    expect(await world.used(PROJECT)).toBe(0);
  });

  it('gives back both reservations a processing video held when its account was disconnected', async () => {
    // Prepare: the upload reserved on both counters and went pending.
    const world = await youTubeWorld();
    await seedProcessingVideo(world);
    await world.tenancy.markAccountDisconnected(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID, {
      at: atDelivery(0),
      reason: 'revoked',
    });

    // Act
    expect(await world.deliver()).toBe('failed');

    // Assess
    expect(await world.used(ACCOUNT_ID)).toBe(0);
    expect(await world.used(PROJECT)).toBe(0);
  });

  it('keeps both reservations, and reserves nothing new, on a check of a processing video', async () => {
    const world = await youTubeWorld();
    await seedProcessingVideo(world);

    expect(await world.deliver()).toBe('published');

    expect(await world.used(ACCOUNT_ID)).toBe(1600);
    expect(await world.used(PROJECT)).toBe(1600);
  });

  it('does not count other networks’ posts on the project', async () => {
    const world = await aDeliveryWorld();
    world.seedPost();

    expect(await makeDeliverPost(world)(world.message)).toBe('published');

    expect(await world.quotas.used(ACCOUNT_ID, today)).toBe(1);
    expect(await world.quotas.used(PROJECT, today)).toBe(0);
  });
});
