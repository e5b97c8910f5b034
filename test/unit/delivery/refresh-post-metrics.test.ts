import { describe, expect, it } from 'vitest';
import { ConflictError, RateLimitedError, ServiceUnavailableError } from '../../../shared/domain/errors.js';
import { MetricsRefusedError } from '../../../shared/domain/metrics-errors.js';
import type { Post } from '../../../shared/domain/posts.js';
import { makeRefreshPostMetrics } from '../../../shared/services/metrics/refresh-post-metrics.js';
import {
  aDeliveryWorld,
  atDelivery,
  DELIVERY_NOW,
  POST_ID,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

const HOUR = 3_600_000;

async function aRefreshWorld(overrides: Partial<Post> = {}) {
  const world = await aDeliveryWorld();
  world.seedPost({
    platform: 'linkedin',
    status: 'published',
    publishedAt: atDelivery(-2 * HOUR),
    platformPostId: 'urn:li:share:1',
    metrics: {
      readings: [{ collectedAt: atDelivery(-HOUR), metrics: { likes: 2 } }],
      collection: { checks: 1, nextCollectAt: atDelivery(4 * HOUR) },
    },
    ...overrides,
  });
  let conflicts = 0;
  const posts = {
    get: world.posts.get.bind(world.posts),
    async update(post: Post, expected: number) {
      if (conflicts > 0) {
        conflicts--;
        throw new ConflictError('changed');
      }
      return world.posts.update(post, expected);
    },
  };
  const refresh = () =>
    makeRefreshPostMetrics({ posts, tenancy: world.tenancy, clock: world.clock })(
      TENANT_ID,
      WORKSPACE_ID,
      POST_ID,
    );
  return { world, refresh, conflictTimes: (n: number) => (conflicts = n) };
}

describe('refreshing a post’s metrics', () => {
  it('moves the next collection to now, keeping the readings', async () => {
    const { world, refresh } = await aRefreshWorld();
    const refreshed = await refresh();
    expect(refreshed.metrics?.collection?.nextCollectAt).toBe(atDelivery(0));
    expect((await world.stored()).metrics).toEqual(refreshed.metrics);
    expect(refreshed.metrics?.readings).toHaveLength(1);
  });

  it('answers 429 within 15 minutes of the last read, saying how long to wait', async () => {
    const { refresh } = await aRefreshWorld({
      metrics: { readings: [{ collectedAt: atDelivery(-5 * 60_000), metrics: { likes: 2 } }] },
    });
    const refused = await refresh().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(10 * 60);
  });

  it('refuses a post deleted at the network, and one of a network the workspace does not collect', async () => {
    const gone = await aRefreshWorld({
      metrics: { readings: [], problem: { failure: 'not_found', at: atDelivery(-HOUR) } },
    });
    await expect(gone.refresh()).rejects.toBeInstanceOf(MetricsRefusedError);
    const paid = await aRefreshWorld({ platform: 'twitter' });
    await expect(paid.refresh()).rejects.toMatchObject({ code: 'metrics_unavailable' });
  });

  it('decides again when the post changed meanwhile, and answers 503 when it keeps changing', async () => {
    const once = await aRefreshWorld();
    once.conflictTimes(1);
    expect((await once.refresh()).metrics?.collection?.nextCollectAt).toBe(
      new Date(DELIVERY_NOW).toISOString(),
    );
    const always = await aRefreshWorld();
    always.conflictTimes(5);
    await expect(always.refresh()).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
