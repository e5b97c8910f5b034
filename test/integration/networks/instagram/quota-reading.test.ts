import { afterEach, describe, expect, it } from 'vitest';
import type { NetworkQuotaReading } from '../../../../shared/domain/account-quotas.js';
import {
  aRequest,
  type InstagramWorld,
  startWorld,
  storedMedia,
  USER,
  userToken,
} from './instagram-world.js';

/** The readings the connector hands the worker (the worker keeps the last for the account read). */
function recorder() {
  const readings: NetworkQuotaReading[] = [];
  return { readings, recordQuota: async (reading: NetworkQuotaReading) => void readings.push(reading) };
}

describe('Instagram publishing limit readings, against the fake', () => {
  let world: InstagramWorld;
  afterEach(() => world.stop());

  it('reports each content_publishing_limit it reads: before making the container, then before publishing', async () => {
    world = await startWorld({ quotaTotal: 50 });
    world.fake.control.addPublished(USER.userId, [Date.now() - 60 * 60 * 1000]);
    const { readings, recordQuota } = recorder();
    const before = Date.now();

    const outcome = await world.network.connector.publish({
      ...aRequest(world, userToken(world), 'image', [storedMedia(world, 'image')]),
      recordQuota,
    });

    expect(outcome.kind).toBe('published');
    expect(readings.map(({ used, total, windowSeconds }) => ({ used, total, windowSeconds }))).toEqual([
      { used: 1, total: 50, windowSeconds: 86_400 },
      { used: 1, total: 50, windowSeconds: 86_400 },
    ]);
    for (const { readAt } of readings) {
      expect(Date.parse(readAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(readAt)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('reports the reading that stops a post at the limit', async () => {
    world = await startWorld({ quotaTotal: 2 });
    const now = Date.now();
    world.fake.control.addPublished(USER.userId, [now - 2 * 60 * 60 * 1000, now - 60 * 60 * 1000]);
    const { readings, recordQuota } = recorder();

    const outcome = await world.network.connector.publish({
      ...aRequest(world, userToken(world), 'image', [storedMedia(world, 'image')]),
      recordQuota,
    });

    expect(outcome).toMatchObject({ kind: 'failed', code: 'PUBLISH_LIMIT_REACHED' });
    expect(readings).toEqual([expect.objectContaining({ used: 2, total: 2 })]);
  });

  it('publishes as before when the worker gives no recorder', async () => {
    world = await startWorld();
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'image', [storedMedia(world, 'image')]),
    );
    expect(outcome.kind).toBe('published');
  });
});
