import { describe, expect, it } from 'vitest';
import { DAILY_QUOTAS, PROJECT_QUOTA_COUNTERS, quotaDay } from '../../../shared/domain/account-quotas.js';
import type { Platform } from '../../../shared/domain/platforms.js';
import type { Post } from '../../../shared/domain/posts.js';
import type { Workspace } from '../../../shared/domain/tenancy.js';
import type { NetworkDefinition } from '../../../shared/networks/definition.js';
import { definitionOf } from '../../../shared/networks/definitions.js';
import type { PostMetricsAnswer, PostMetricsRequest } from '../../../shared/ports/connector.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import { makeCollectPostMetrics } from '../../../shared/services/metrics/collect-post-metrics.js';
import { anAccount } from '../support/builders.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  atDelivery,
  DELIVERY_NOW,
  type DeliveryWorld,
  FakeNetwork,
  POST_ID,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

const HOUR = 3600_000;

/** The fake network with a metrics reader answering what the test scripts (numbers by default). */
class MeasuredNetwork extends FakeNetwork {
  readonly reads: PostMetricsRequest[] = [];
  next: PostMetricsAnswer | 'throw' | undefined;

  async readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    this.reads.push(request);
    const answer = this.next;
    if (answer === 'throw') throw new TypeError('fetch failed');
    if (answer) return answer;
    const byPost = Object.fromEntries(
      request.posts.map((post) => [post.postId, { likes: 7, impressions: 120, comments: -1 }]),
    );
    return { kind: 'metrics', byPost, notFound: [] };
  }
}

async function setCollected(world: DeliveryWorld, platforms: Platform[] | undefined) {
  const workspace = (await world.tenancy.getWorkspace(TENANT_ID, WORKSPACE_ID)) as Workspace;
  const { metricsCollection: _earlier, ...rest } = workspace;
  await world.tenancy.putWorkspace(platforms ? { ...rest, metricsCollection: { platforms } } : rest);
}

async function aMeasuredWorld() {
  const network = new MeasuredNetwork();
  const world = await aDeliveryWorld({ network });
  const deps = { ...world, workspaces: world.tenancy };
  // The world's account is X's, whose paid reads a workspace collects only when it says so.
  await setCollected(world, ['twitter', 'youtube']);
  /** A post published at the world's start, its first collection at +1 h. */
  const seedPublished = (overrides: Partial<Post> = {}) =>
    world.seedPost({
      status: 'published',
      publishedAt: atDelivery(0),
      platformPostId: 'net-1',
      metrics: { readings: [], collection: { checks: 0, nextCollectAt: atDelivery(HOUR) } },
      ...overrides,
    });
  const collect = async (options: { force?: boolean } = {}) =>
    makeCollectPostMetrics(deps)(await world.stored(), world.logger, options);
  return { world, network, deps, seedPublished, collect };
}

describe('metrics collection starts at publication', () => {
  it('a post the network named gets its first collection an hour later', async () => {
    const { world, deps } = await aMeasuredWorld();
    world.seedPost();
    expect(await makeDeliverPost(deps)(world.message)).toBe('published');
    expect((await world.stored()).metrics).toEqual({
      readings: [],
      collection: { checks: 0, nextCollectAt: atDelivery(HOUR) },
    });
  });

  it.each([
    ['a workspace whose setting leaves the network out', ['linkedin'] as Platform[]],
    ['by default, a workspace and X, whose reads are paid', undefined],
  ])('%s: the first collection ends the schedule without a read', async (_case, platforms) => {
    const { world, deps, network } = await aMeasuredWorld();
    await setCollected(world, platforms);
    world.seedPost();
    expect(await makeDeliverPost(deps)(world.message)).toBe('published');
    // Started without reading the workspace on the publish path: its setting is checked at the collection.
    expect((await world.stored()).metrics?.collection?.nextCollectAt).toBe(atDelivery(HOUR));
    world.clock.set(DELIVERY_NOW + HOUR);
    expect(await makeDeliverPost(deps)(world.message)).toBe('metrics_collected');
    expect(network.reads).toHaveLength(0);
    expect((await world.stored()).metrics).toEqual({ readings: [] });
  });

  it('a post whose id comes later starts its collection when the id comes, at the next slot ahead', async () => {
    const { world, deps, network } = await aMeasuredWorld();
    world.seedPost({
      status: 'published',
      publishedAt: atDelivery(0),
      delivery: {
        postIdFollowUp: {
          progress: '{}',
          checks: 3,
          since: atDelivery(0),
          nextCheckAt: atDelivery(2 * HOUR),
        },
      },
    });
    network.posts.push(POST_ID);
    world.clock.set(DELIVERY_NOW + 2 * HOUR);
    expect(await makeDeliverPost(deps)(world.message)).toBe('followed_up');
    const named = await world.stored();
    expect(named.platformPostId).toBeDefined();
    expect(named.metrics).toEqual({
      readings: [],
      collection: { checks: 0, nextCollectAt: atDelivery(6 * HOUR) },
    });
  });

  it('a network without a reader gets none', async () => {
    const world = await aDeliveryWorld();
    world.seedPost();
    expect(await makeDeliverPost({ ...world, workspaces: world.tenancy })(world.message)).toBe('published');
    expect((await world.stored()).metrics).toBeUndefined();
  });
});

describe('a due collection', () => {
  it('comes through the worker: the reading is stored, cleaned, and the next slot set', async () => {
    const { world, deps, network, seedPublished } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    expect(await makeDeliverPost(deps)(world.message)).toBe('metrics_collected');
    expect(network.reads[0]?.posts).toEqual([
      { postId: POST_ID, platformPostId: 'net-1', publishedAt: atDelivery(0), texts: ['hello'] },
    ]);
    expect((await world.stored()).metrics).toEqual({
      readings: [{ collectedAt: atDelivery(HOUR), metrics: { likes: 7, impressions: 120 } }],
      collection: { checks: 1, nextCollectAt: atDelivery(6 * HOUR) },
    });
  });

  it('a message more than its schedule’s minute early is put back, not read', async () => {
    const { world, deps, network, seedPublished } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR - 5 * 60_000);
    expect(await makeDeliverPost(deps)(world.message)).toBe('held');
    expect(network.reads).toHaveLength(0);
  });

  it('a message its schedule fired a minute early is read at once, and the next slot follows the one due', async () => {
    const { world, deps, network, seedPublished } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR - 60_000);
    expect(await makeDeliverPost(deps)(world.message)).toBe('metrics_collected');
    expect(network.reads).toHaveLength(1);
    expect((await world.stored()).metrics?.collection).toEqual({
      checks: 1,
      nextCollectAt: atDelivery(6 * HOUR),
    });
  });

  it('a message more than 15 minutes early is dropped (the post’s schedule wakes it)', async () => {
    const { world, deps, network, seedPublished } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + 20 * 60_000);
    expect(await makeDeliverPost(deps)(world.message)).toBe('dropped');
    expect(network.reads).toHaveLength(0);
  });

  it('a published post whose schedule ended is dropped, not read', async () => {
    const { world, deps, network, seedPublished } = await aMeasuredWorld();
    seedPublished({ metrics: { readings: [] } });
    world.clock.set(DELIVERY_NOW + HOUR);
    expect(await makeDeliverPost(deps)(world.message)).toBe('dropped');
    expect(network.reads).toHaveLength(0);
  });

  it('missing scopes stop the schedule and say which', async () => {
    const { world, network, seedPublished, collect } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    network.next = {
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['tweet.read'],
      message: 'no',
    };
    expect((await collect()).kind).toBe('failed');
    expect((await world.stored()).metrics).toEqual({
      readings: [],
      problem: { failure: 'missing_scopes', at: atDelivery(HOUR), missingScopes: ['tweet.read'] },
    });
  });

  it('a refused token stops the schedule', async () => {
    const { world, network, seedPublished, collect } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    network.next = { kind: 'failed', failure: 'auth_failed', message: 'expired' };
    await collect();
    const metrics = (await world.stored()).metrics;
    expect(metrics?.collection).toBeUndefined();
    expect(metrics?.problem?.failure).toBe('auth_failed');
  });

  it('a post the network no longer has stops its schedule', async () => {
    const { world, network, seedPublished, collect } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    network.next = { kind: 'metrics', byPost: {}, notFound: [POST_ID] };
    await collect();
    const metrics = (await world.stored()).metrics;
    expect(metrics?.collection).toBeUndefined();
    expect(metrics?.problem?.failure).toBe('not_found');
  });

  it('a rate limit tries again after the network’s wait, keeping the readings', async () => {
    const { world, network, seedPublished, collect } = await aMeasuredWorld();
    seedPublished({
      metrics: {
        readings: [{ collectedAt: atDelivery(HOUR), metrics: { likes: 1 } }],
        collection: { checks: 1, nextCollectAt: atDelivery(6 * HOUR) },
      },
    });
    world.clock.set(DELIVERY_NOW + 6 * HOUR);
    network.next = { kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 300, message: 'wait' };
    await collect();
    expect((await world.stored()).metrics).toEqual({
      readings: [{ collectedAt: atDelivery(HOUR), metrics: { likes: 1 } }],
      collection: { checks: 2, nextCollectAt: atDelivery(6 * HOUR + 300_000) },
      problem: { failure: 'rate_limited', at: atDelivery(6 * HOUR) },
    });
  });

  it('a read that throws is unavailable: the next slot tries again, and a reading clears the problem', async () => {
    const { world, network, seedPublished, collect } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    network.next = 'throw';
    expect((await collect()).kind).toBe('failed');
    expect((await world.stored()).metrics?.collection?.nextCollectAt).toBe(atDelivery(6 * HOUR));
    world.clock.set(DELIVERY_NOW + 6 * HOUR);
    network.next = undefined;
    expect((await collect()).kind).toBe('collected');
    expect((await world.stored()).metrics?.problem).toBeUndefined();
  });

  it('a disconnected account is not read: its problem is auth_failed', async () => {
    const { world, network, seedPublished, collect } = await aMeasuredWorld();
    seedPublished();
    await world.tenancy.putAccount(
      anAccount({
        tenantId: TENANT_ID,
        workspaceId: WORKSPACE_ID,
        accountId: ACCOUNT_ID,
        status: 'disconnected',
      }),
    );
    world.clock.set(DELIVERY_NOW + HOUR);
    expect((await collect()).kind).toBe('failed');
    expect(network.reads).toHaveLength(0);
    expect((await world.stored()).metrics?.problem?.failure).toBe('auth_failed');
  });

  it('a post not yet due is not read unless forced (a refresh)', async () => {
    const { world, network, seedPublished, collect } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + 30 * 60_000);
    expect((await collect()).kind).toBe('dropped');
    expect((await collect({ force: true })).kind).toBe('collected');
    expect(network.reads).toHaveLength(1);
    // The refresh leaves the hour's slot in place.
    expect((await world.stored()).metrics?.collection?.nextCollectAt).toBe(atDelivery(HOUR));
  });
});

describe('batching', () => {
  it('reads the account’s posts due within 15 minutes in the same request, up to the network’s batch size', async () => {
    const { world, network, seedPublished, collect } = await aMeasuredWorld();
    seedPublished();
    const other = (postId: string, dueMs: number) =>
      world.seedPost({
        postId,
        status: 'published',
        publishedAt: atDelivery(dueMs - HOUR),
        platformPostId: `net-${postId}`,
        metrics: { readings: [], collection: { checks: 0, nextCollectAt: atDelivery(dueMs) } },
      });
    other('pst_01JD000000000000000000000A', HOUR + 10 * 60_000);
    other('pst_01JD000000000000000000000B', HOUR + 40 * 60_000);
    world.clock.set(DELIVERY_NOW + HOUR);
    await collect();
    const definition: NetworkDefinition = definitionOf('twitter');
    const batchSize = definition.metrics?.batchSize ?? 1;
    const read = network.reads[0]?.posts.map((post) => post.postId) ?? [];
    expect(read).toHaveLength(Math.min(batchSize, 2));
    expect(read).not.toContain('pst_01JD000000000000000000000B');
    if (batchSize > 1) {
      const companion = await world.stored('pst_01JD000000000000000000000A');
      // Read ten minutes early, the companion's next read is its next slot, not that same time.
      expect(companion.metrics?.readings).toHaveLength(1);
      expect(companion.metrics?.collection?.nextCollectAt).toBe(atDelivery(6 * HOUR + 10 * 60_000));
    }
  });
});

describe('YouTube’s shared units', () => {
  async function aYouTubeWorld() {
    const measured = await aMeasuredWorld();
    await measured.world.tenancy.putAccount(
      anAccount({
        tenantId: TENANT_ID,
        workspaceId: WORKSPACE_ID,
        accountId: ACCOUNT_ID,
        platform: 'youtube',
      }),
    );
    measured.seedPublished({ platform: 'youtube', postType: 'video' });
    measured.world.clock.set(DELIVERY_NOW + HOUR);
    const project = PROJECT_QUOTA_COUNTERS.youtube as string;
    const day = quotaDay(DELIVERY_NOW + HOUR);
    return { ...measured, project, day, quota: DAILY_QUOTAS.youtube };
  }

  it('a read counts its unit in the project counter', async () => {
    const { world, network, collect, project, day } = await aYouTubeWorld();
    expect((await collect()).kind).toBe('collected');
    expect(network.reads).toHaveLength(1);
    expect(await world.quotas.used(project, day)).toBe(1);
  });

  it('no read while it would leave less than an upload’s cost free: put off, no problem', async () => {
    const { world, network, collect, project, day, quota } = await aYouTubeWorld();
    await world.quotas.reserve(project, day, quota.limit - quota.costPerPost, quota.limit);
    expect((await collect()).kind).toBe('put_off');
    expect(network.reads).toHaveLength(0);
    expect(await world.quotas.used(project, day)).toBe(quota.limit - quota.costPerPost);
    const metrics = (await world.stored()).metrics;
    expect(metrics?.problem).toBeUndefined();
    // The next quota day comes after the 6 h slot: that slot does the read.
    expect(metrics?.collection?.nextCollectAt).toBe(atDelivery(6 * HOUR));
  });
});
