import { describe, expect, it } from 'vitest';
import { DAILY_QUOTAS, PROJECT_QUOTA_COUNTERS, quotaDay } from '../../../shared/domain/account-quotas.js';
import type { Platform } from '../../../shared/domain/platforms.js';
import type { Post } from '../../../shared/domain/posts.js';
import type { Account, Workspace } from '../../../shared/domain/tenancy.js';
import type { Network } from '../../../shared/networks/network.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../../shared/ports/connector.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import { makeCollectPostMetrics } from '../../../shared/services/metrics/collect-post-metrics.js';
import { anAccount } from '../support/builders.js';
import { FakeOAuthProvider } from '../support/fake-oauth-provider.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  atDelivery,
  DELIVERY_NOW,
  type DeliveryWorld,
  FakeNetwork,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A network that reads posts and its account, counting both, answering what a test scripts. */
class MeasuredNetwork extends FakeNetwork {
  readonly postReads: PostMetricsRequest[] = [];
  readonly accountReads: AccountMetricsRequest[] = [];
  nextPosts: PostMetricsAnswer | undefined;
  nextAccount: AccountMetricsAnswer | 'throw' | undefined;

  async readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    this.postReads.push(request);
    if (this.nextPosts) return this.nextPosts;
    const byPost = Object.fromEntries(request.posts.map((post) => [post.postId, { likes: 7 }]));
    return { kind: 'metrics', byPost, notFound: [] };
  }

  async readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    this.accountReads.push(request);
    const answer = this.nextAccount;
    if (answer === 'throw') throw new TypeError('fetch failed');
    return answer ?? { kind: 'metrics', metrics: { followers: 100 + this.accountReads.length, likes: -3 } };
  }
}

async function setCollected(world: DeliveryWorld, platforms: Platform[] | undefined) {
  const workspace = (await world.tenancy.getWorkspace(TENANT_ID, WORKSPACE_ID)) as Workspace;
  const { metricsCollection: _earlier, ...rest } = workspace;
  await world.tenancy.putWorkspace(platforms ? { ...rest, metricsCollection: { platforms } } : rest);
}

/** The world's (sandbox, X) account with a published post due at +1 h; X's reads collected. */
async function aMeasuredWorld(
  options: { networks?: Map<Platform, Network>; network?: MeasuredNetwork } = {},
) {
  const network = options.network ?? new MeasuredNetwork();
  const world = await aDeliveryWorld({ network, ...(options.networks && { networks: options.networks }) });
  const deps = { ...world, workspaces: world.tenancy };
  await setCollected(world, ['twitter', 'youtube']);
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
  const account = async () =>
    (await world.tenancy.getAccount(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID)) as Account;
  return { world, network, deps, seedPublished, collect, account };
}

describe("a post's collection also takes its account's reading of the day", () => {
  it('through the worker, a sandbox account gets its reading (cleaned), stored beside the post’s', async () => {
    const { world, deps, network, seedPublished, account } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);

    expect(await makeDeliverPost(deps)(world.message)).toBe('metrics_collected');

    expect(network.postReads).toHaveLength(1);
    expect(network.accountReads).toHaveLength(1);
    expect(network.accountReads[0]?.account.accountId).toBe(ACCOUNT_ID);
    expect((await account()).metrics).toEqual({
      readings: [{ collectedAt: atDelivery(HOUR), metrics: { followers: 101 } }],
    });
    expect((await world.stored()).metrics?.readings).toHaveLength(1);
  });

  it('once a UTC day: a later collection the same day reads only the post; the next day’s reads both', async () => {
    const { world, network, seedPublished, collect, account } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    await collect();
    world.clock.set(DELIVERY_NOW + 2 * HOUR);
    expect((await collect({ force: true })).kind).toBe('collected');

    expect(network.postReads).toHaveLength(2);
    expect(network.accountReads).toHaveLength(1);

    world.clock.set(DELIVERY_NOW + DAY);
    expect((await collect({ force: true })).kind).toBe('collected');
    expect(network.accountReads).toHaveLength(2);
    expect((await account()).metrics?.readings.map((reading) => reading.collectedAt)).toEqual([
      atDelivery(HOUR),
      atDelivery(DAY),
    ]);
  });

  it.each<[string, PostMetricsAnswer]>([
    ['rate limited', { kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 60, message: 'wait' }],
    ['refused token', { kind: 'failed', failure: 'auth_failed', message: 'expired' }],
    ['unavailable', { kind: 'failed', failure: 'unavailable', message: 'no answer' }],
  ])('a post read the network refused (%s) asks nothing more of it', async (_case, refusal) => {
    const { world, network, seedPublished, collect, account } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    network.nextPosts = refusal;

    expect((await collect()).kind).toBe('failed');

    expect(network.accountReads).toHaveLength(0);
    expect((await account()).metrics).toBeUndefined();
  });

  it('a workspace that does not collect the network reads neither (X bills each read)', async () => {
    const { world, network, seedPublished, collect, account } = await aMeasuredWorld();
    await setCollected(world, undefined);
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);

    expect((await collect()).kind).toBe('not_collected');

    expect(network.postReads).toHaveLength(0);
    expect(network.accountReads).toHaveLength(0);
    expect((await account()).metrics).toBeUndefined();
  });

  it('an account read that fails is noted on the account; the post’s reading stands', async () => {
    const { world, network, seedPublished, collect, account } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    network.nextAccount = 'throw';

    expect((await collect()).kind).toBe('collected');

    expect((await account()).metrics).toEqual({
      readings: [],
      problem: { failure: 'unavailable', at: atDelivery(HOUR) },
    });
    expect((await world.stored()).metrics?.readings).toHaveLength(1);
  });

  it('an account reading that cannot be stored leaves the post’s collection as it was', async () => {
    const { world, seedPublished, collect } = await aMeasuredWorld();
    seedPublished();
    world.clock.set(DELIVERY_NOW + HOUR);
    world.tenancy.recordAccountMetrics = async () => {
      throw new Error('the store is down');
    };

    const result = await collect();

    expect(result.kind).toBe('collected');
    expect((await world.stored()).metrics?.collection?.nextCollectAt).toBe(atDelivery(6 * HOUR));
    expect(world.logger.entries.some((entry) => entry.level === 'warn')).toBe(true);
  });
});

describe('YouTube’s shared units and the account read', () => {
  const project = PROJECT_QUOTA_COUNTERS.youtube as string;
  const day = quotaDay(DELIVERY_NOW + HOUR);
  const quota = DAILY_QUOTAS.youtube;

  /** The world's account on YouTube, a real one (its reads spend the project's units) unless sandbox. */
  async function aYouTubeWorld(sandbox: boolean) {
    const network = new MeasuredNetwork();
    const clock = { now: () => DELIVERY_NOW };
    const networks = new Map<Platform, Network>([
      [
        'youtube',
        { platform: 'youtube', app: 'GOOGLE', oauth: new FakeOAuthProvider(clock), connector: network },
      ],
    ]);
    const measured = await aMeasuredWorld({ network, networks });
    const owner = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, accountId: ACCOUNT_ID };
    if (sandbox) await measured.world.tenancy.putAccount(anAccount({ ...owner, platform: 'youtube' }));
    else {
      const tokens = new FakeOAuthProvider(measured.world.clock).grant({
        expiresAt: new Date(DELIVERY_NOW + 30 * DAY).toISOString(),
      });
      await measured.world.connectRealAccount(tokens, { platform: 'youtube' });
    }
    measured.seedPublished({ platform: 'youtube', postType: 'video' });
    measured.world.clock.set(DELIVERY_NOW + HOUR);
    return measured;
  }

  it('a real account’s read counts its unit beside the posts’ read', async () => {
    const { world, network, collect } = await aYouTubeWorld(false);
    expect((await collect()).kind).toBe('collected');
    expect(network.accountReads).toHaveLength(1);
    expect(network.accountReads[0]?.credentials?.accessToken).toBeTruthy();
    expect(await world.quotas.used(project, day)).toBe(2);
  });

  it('no account read when its unit would leave less than an upload’s cost free (uploads keep priority)', async () => {
    const { world, network, collect, account } = await aYouTubeWorld(false);
    // Room for exactly one read: the posts' read takes it.
    await world.quotas.reserve(project, day, quota.limit - quota.costPerPost - 1, quota.limit);

    expect((await collect()).kind).toBe('collected');

    expect(network.postReads).toHaveLength(1);
    expect(network.accountReads).toHaveLength(0);
    expect(await world.quotas.used(project, day)).toBe(quota.limit - quota.costPerPost);
    expect((await account()).metrics).toBeUndefined();
  });

  it('a sandbox account’s read spends no unit of the project', async () => {
    const { world, network, collect } = await aYouTubeWorld(true);
    expect((await collect()).kind).toBe('collected');
    expect(network.accountReads).toHaveLength(1);
    // The posts' read counts its unit, as before this reading was added.
    expect(await world.quotas.used(project, day)).toBe(1);
  });
});
