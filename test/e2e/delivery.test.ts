import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import { makeDynamoSandboxLedger } from '../../shared/adapters/dynamodb/sandbox-ledger.js';
import type { Post } from '../../shared/domain/posts.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient, seedMedia, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface PostBody {
  id: string;
  status: string;
  attempts: number;
  scheduledAt: string | null;
  publishedAt: string | null;
  platformPostId: string | null;
  platformPostUrl: string | null;
  error: {
    origin: string;
    code: string;
    message: string;
    platformRawCode?: string;
    retryable: boolean;
  } | null;
}

const FAST_RETRIES = {
  maxTransientAttempts: 3,
  transientBaseSeconds: 1,
  transientCapSeconds: 1,
  rateLimitWindowMs: 15 * 60 * 1000,
  rateLimitMinWaitSeconds: 1,
};
const secondsAhead = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe('delivery on the local host, through the sandbox network', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;

  const create = async (body: unknown) => {
    const response = await posts.create(body);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const read = async (id: string) => (await (await posts.get(id)).json()) as PostBody;
  const startDelays = () => host.metricPoints.filter((point) => point.name === 'ScheduledStartDelay');
  const counted = (name: string, dimensions: Record<string, string>) =>
    host.metricPoints.filter(
      (point) => point.name === name && JSON.stringify(point.dimensions) === JSON.stringify(dimensions),
    ).length;
  const settle = (id: string, timeoutMs = 15_000) =>
    eventually(
      async () => {
        const post = await read(id);
        return ['published', 'failed', 'cancelled'].includes(post.status) ? post : undefined;
      },
      { timeoutMs, what: `post ${id} to settle` },
    );

  beforeAll(async () => {
    host = await startTestHost({
      delivery: {
        sandboxLatencyMs: { min: 5, max: 20 },
        retryPolicy: FAST_RETRIES,
        leaseMs: 1000,
        connectorTimeoutMs: 1500,
        lookupTimeoutMs: 1000,
      },
    });
    tenant = await host.admin.bootstrap({ name: 'Delivery' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  it('publishes a post now: published with the platform id and URL, events queued then published', async () => {
    const id = await create(tweet(tenant, { content: 'Now' }));
    const post = await settle(id);
    expect(post).toMatchObject({ status: 'published', attempts: 1, error: null });
    expect(post.platformPostId).toMatch(/^\d{19}$/);
    expect(post.platformPostUrl).toBe(`https://x.com/sandbox_short/status/${post.platformPostId}`);
    // The outbox records events from the stream, a moment after the post itself changes.
    const events = await eventually(async () => {
      const mine = host.delivery?.events().filter((event) => event.data.postId === id) ?? [];
      return mine.length >= 2 ? mine : undefined;
    });
    expect(events.map((event) => event.type)).toEqual(['post.queued', 'post.published']);
    expect(events[1]?.data).toMatchObject({ platformPostId: post.platformPostId, status: 'published' });
  });

  it('publishes a scheduled post within 2 s of scheduledAt, never before it', async () => {
    const scheduledAt = secondsAhead(3);
    const delaysBefore = startDelays().length;
    const id = await create(tweet(tenant, { status: 'scheduled', scheduledAt, content: 'On time' }));
    const post = await settle(id);
    expect(post.status).toBe('published');
    const lateness = Date.parse(post.publishedAt as string) - Date.parse(scheduledAt);
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(2000);
    // The start delay an operator watches: from scheduledAt to the network call.
    const delays = startDelays().slice(delaysBefore);
    expect(delays).toHaveLength(1);
    const [delay] = delays;
    expect(delay?.dimensions).toEqual({ platform: 'twitter' });
    expect(delay?.value).toBeGreaterThanOrEqual(0);
    expect(delay?.value).toBeLessThan(2000);
  });

  it('moves a post scheduled far ahead (a schedule) to soon by PATCH, and publishes it then', async () => {
    const id = await create(
      tweet(tenant, { status: 'scheduled', scheduledAt: secondsAhead(3600), content: 'Moved' }),
    );
    const newTime = secondsAhead(3);
    expect((await posts.patch(id, { scheduledAt: newTime })).status).toBe(200);
    const post = await settle(id);
    expect(post.status).toBe('published');
    expect(Date.parse(post.publishedAt as string) - Date.parse(newTime)).toBeLessThan(2000);
  });

  it('never delivers a cancelled scheduled post', async () => {
    const id = await create(
      tweet(tenant, { status: 'scheduled', scheduledAt: secondsAhead(2), content: 'Never' }),
    );
    expect((await posts.cancel(id)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await read(id)).toMatchObject({ status: 'cancelled', platformPostId: null, attempts: 0 });
  });

  describe('sandbox failure modes', () => {
    it('transient errors are retried with backoff, then the post is published', async () => {
      const post = await settle(await create(tweet(tenant, { content: 'Flaky [sandbox:transient:2]' })));
      expect(post).toMatchObject({ status: 'published', attempts: 3, error: null });
    });

    it('transient errors past the last attempt fail the post, retryable', async () => {
      const post = await settle(await create(tweet(tenant, { content: 'Down [sandbox:transient:9]' })));
      expect(post).toMatchObject({
        status: 'failed',
        attempts: 3,
        error: { origin: 'platform', code: 'PLATFORM_UNAVAILABLE', platformRawCode: '503', retryable: true },
      });
    });

    it('media too large fails at once, not retryable, with post.failed carrying the error', async () => {
      const id = await create(tweet(tenant, { content: 'Big [sandbox:media_too_large]' }));
      const post = await settle(id);
      expect(post).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { code: 'MEDIA_TOO_LARGE', retryable: false },
      });
      const failed = await eventually(async () =>
        host.delivery?.events().find((event) => event.type === 'post.failed' && event.data.postId === id),
      );
      expect(failed?.data).toMatchObject({
        postId: id,
        status: 'failed',
        error: { code: 'MEDIA_TOO_LARGE', retryable: false },
      });
    });

    it('a permanent rejection fails at once, not retryable, counted as failed by platform and code', async () => {
      const failedBefore = counted('PostsFailed', { platform: 'twitter', code: 'PLATFORM_REJECTED' });
      const post = await settle(await create(tweet(tenant, { content: 'No [sandbox:rejected]' })));
      expect(post).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { code: 'PLATFORM_REJECTED', retryable: false },
      });
      expect(counted('PostsFailed', { platform: 'twitter', code: 'PLATFORM_REJECTED' })).toBe(
        failedBefore + 1,
      );
    });

    it('a revoked token fails the post, disconnects the account and emits account.disconnected', async () => {
      const account = await host.admin.createSandboxAccount({
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        platform: 'twitter',
      });
      const post = await settle(
        await create(
          tweet(tenant, { accountId: account.accountId, content: 'Gone [sandbox:token_revoked]' }),
        ),
      );
      expect(post).toMatchObject({ status: 'failed', error: { code: 'TOKEN_REVOKED', retryable: false } });
      const stored = await host.deps.tenancy.getAccount(
        tenant.tenantId,
        tenant.workspaceId,
        account.accountId,
      );
      expect(stored?.status).toBe('disconnected');
      await eventually(
        async () =>
          host.delivery
            ?.events()
            .find((e) => e.type === 'account.disconnected' && e.data.accountId === account.accountId),
        { what: 'account.disconnected' },
      );
      // Nothing more can be published from it.
      const next = await posts.create(tweet(tenant, { accountId: account.accountId }));
      expect(next.status).toBe(422);
    });

    it('a slow network still publishes', async () => {
      const post = await settle(await create(tweet(tenant, { content: 'Slow [sandbox:slow:400]' })));
      expect(post.status).toBe('published');
    });

    it('a network that answers after the time-out: looked up and published, not tried again', async () => {
      // The sandbox publishes, then answers 5 s later; the worker gives up after 1.5 s.
      const id = await create(tweet(tenant, { content: 'Late answer [sandbox:slow:5000]' }));
      const post = await settle(id);
      expect(post).toMatchObject({ status: 'published', attempts: 1, error: null });
      expect(post.platformPostId).toMatch(/^\d{19}$/);
      const lines = host.logs.filter((line) => line.fields.postId === id);
      const ids = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, postId: id, attempt: 1 };
      expect(
        lines.find((line) => line.message === 'the network call ended without an answer')?.fields,
      ).toMatchObject({ ...ids, code: 'PLATFORM_TIMEOUT' });
      expect(
        lines.find((line) => line.message === 'looked the post up on the network')?.fields,
      ).toMatchObject({
        ...ids,
        found: 'found',
      });
      expect(lines.find((line) => line.message === 'post published')?.fields).toMatchObject(ids);
    });

    it('a post whose media was deleted before delivery fails with media_not_found', async () => {
      const image = await seedMedia(host, tenant, 'image/png');
      const id = await create(
        tweet(tenant, {
          status: 'scheduled',
          scheduledAt: secondsAhead(2),
          postType: 'image',
          content: 'Pic',
          media: [{ id: image }],
        }),
      );
      const db = makeDocumentClient(
        makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
      );
      await db.send(
        new DeleteCommand({
          TableName: host.config.tables.main,
          Key: keys.media(tenant.tenantId, tenant.workspaceId, image),
        }),
      );
      db.destroy();
      const post = await settle(id);
      expect(post).toMatchObject({
        status: 'failed',
        error: { origin: 'service', code: 'media_not_found', retryable: false },
      });
    });
  });

  describe('daily account quotas', () => {
    const today = () => new Date().toISOString().slice(0, 10);
    const usage = async (accountId: string) => {
      const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
        apiKey: tenant.apiKey,
      });
      return (
        (await response.json()) as { usage: { used: number; limit: number; unit: string; day: string } }
      ).usage;
    };

    it("counts published posts in the account's usage, and gives back what did not publish", async () => {
      const account = await host.admin.createSandboxAccount({
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        platform: 'twitter',
      });
      expect(await usage(account.accountId)).toEqual({
        day: today(),
        used: 0,
        limit: 2400,
        unit: 'posts',
        costPerPost: 1,
        resetsAt: expect.any(String),
      });
      await settle(await create(tweet(tenant, { accountId: account.accountId, content: 'Counted' })));
      await settle(
        await create(tweet(tenant, { accountId: account.accountId, content: 'Refused [sandbox:rejected]' })),
      );
      expect((await usage(account.accountId)).used).toBe(1);
    });

    it('fails a delivery past the daily ceiling with DAILY_QUOTA_EXCEEDED, retryable', async () => {
      const account = await host.admin.createSandboxAccount({
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        platform: 'instagram',
      });
      await host.deps.quotas.reserve(account.accountId, today(), 25, 25);
      const id = await create({
        platform: 'instagram',
        accountId: account.accountId,
        status: 'publish',
        postType: 'image',
        content: 'One too many',
        media: [{ url: 'https://cdn.example.com/a.jpg', type: 'image' }],
      });
      const post = await settle(id);
      expect(post).toMatchObject({
        status: 'failed',
        error: { origin: 'service', code: 'DAILY_QUOTA_EXCEEDED', retryable: true },
      });
      expect(await usage(account.accountId)).toMatchObject({ used: 25, limit: 25 });
    });
  });

  it('counts each post created once (not its idempotent replay), and each one published, by platform', async () => {
    const createdBefore = counted('PostsCreated', { platform: 'twitter' });
    const publishedBefore = counted('PostsPublished', { platform: 'twitter' });
    const body = tweet(tenant, { content: 'Counted once' });
    const first = await posts.create(body, { 'Idempotency-Key': 'count-me-once' });
    const replay = await posts.create(body, { 'Idempotency-Key': 'count-me-once' });
    const { id } = (await first.json()) as { id: string };
    expect(((await replay.json()) as { id: string }).id).toBe(id);
    expect((await settle(id)).status).toBe('published');
    expect(counted('PostsCreated', { platform: 'twitter' })).toBe(createdBefore + 1);
    expect(counted('PostsPublished', { platform: 'twitter' })).toBe(publishedBefore + 1);
  });

  describe('exactly once', () => {
    it('duplicate and late messages for a post do not post it again', async () => {
      const id = await create(tweet(tenant, { content: 'Once' }));
      const message = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, postId: id };
      await Promise.all([1, 2, 3, 4].map(() => host.delivery?.deliveryQueue.send(message)));
      const post = await settle(id);
      await Promise.all([1, 2].map(() => host.delivery?.deliveryQueue.send(message)));
      // Give the extra messages time to be received and dropped, and any second event time to appear.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = await read(id);
      expect(after).toMatchObject({ status: 'published', attempts: 1, platformPostId: post.platformPostId });
      expect(
        host.delivery?.events().filter((e) => e.type === 'post.published' && e.data.postId === id),
      ).toHaveLength(1);
    });

    /** Leaves a post as a worker that died mid-delivery leaves it: publishing, with its lease run out. */
    const abandon = async (content: string) => {
      const id = await create(tweet(tenant, { status: 'draft', content }));
      const stored = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
      const past = new Date(Date.now() - 5000).toISOString();
      await host.deps.posts.update(
        {
          ...stored,
          status: 'publishing',
          attempts: 1,
          version: stored.version + 1,
          delivery: { leaseId: 'dead', leaseUntil: past },
        },
        stored.version,
      );
      return id;
    };

    it('a worker that died after the network accepted the post: the reconciler marks it published, no second post', async () => {
      const id = await abandon('Accepted before the crash');
      const ledger = makeDynamoSandboxLedger(
        makeDocumentClient(makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint })),
        host.config.tables.main,
      );
      await ledger.record(id, {
        platformPostId: '1111111111111111111',
        platformPostUrl: 'https://x.com/sandbox_short/status/1111111111111111111',
        publishedAt: new Date().toISOString(),
      });
      await host.delivery?.reconcileNow();
      expect(await read(id)).toMatchObject({
        status: 'published',
        attempts: 1,
        platformPostId: '1111111111111111111',
      });
    });

    it('a worker that died before the network had it: the reconciler queues it again and it is published once', async () => {
      const id = await abandon('Lost before the call');
      await host.delivery?.reconcileNow();
      const post = await settle(id);
      expect(post).toMatchObject({ status: 'published', attempts: 2 });
    });
  });
});
