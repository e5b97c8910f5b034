import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoSandboxLedger } from '../../shared/adapters/dynamodb/sandbox-ledger.js';
import type { Post } from '../../shared/domain/posts.js';
import { fixedClock } from '../../shared/ports/clock.js';
import { LEASE_MS } from '../../shared/services/delivery/deliver-post.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const MINUTE = 60_000;

/**
 * A restart of the local host: the same data folder and tables, a new process's worth of queues,
 * scheduler and poller. The clock is set by the test, so "twenty minutes later" takes no time.
 */
describe('a restart of the local host', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-restart-'));
  const tablePrefix = `r${Math.random().toString(36).slice(2, 8)}-`;
  const clock = fixedClock(Date.now());
  const hosts: TestHost[] = [];
  const start = async () => {
    const host = await startTestHost({
      clock,
      dataDir,
      tablePrefix,
      delivery: { sandboxLatencyMs: { min: 0, max: 0 }, reconcileIntervalMs: 3_600_000 },
    });
    hosts.push(host);
    return host;
  };
  afterAll(async () => {
    for (const host of hosts) await host.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes after the restart a post scheduled before it (persisted schedule), and one whose message was lost, at once', async () => {
    // Prepare: one post far enough ahead to get a schedule, one near enough to ride a delayed message.
    const first = await start();
    const tenant = await first.admin.bootstrap({ name: 'Restarted' });
    const before = postsClient(first, tenant);
    const far = (await (
      await before.create(
        tweet(tenant, {
          status: 'scheduled',
          scheduledAt: new Date(clock.now() + 20 * MINUTE).toISOString(),
          content: 'far',
        }),
      )
    ).json()) as { id: string };
    const near = (await (
      await before.create(
        tweet(tenant, {
          status: 'scheduled',
          scheduledAt: new Date(clock.now() + 5 * MINUTE).toISOString(),
          content: 'near',
        }),
      )
    ).json()) as { id: string };
    // Let the outbox make the schedule and send the delayed message before the host goes down.
    await eventually(async () =>
      first.delivery?.events().filter((e) => e.type === 'post.scheduled').length === 2 ? true : undefined,
    );
    await first.stop();

    // Act: twenty-one minutes later, a new host on the same data.
    clock.advance(21 * MINUTE);
    const second = await start();
    const after = postsClient(second, tenant);

    // Assess: the schedule survived the restart and fires at once, being overdue.
    const farPost = await eventually(
      async () => {
        const post = (await (await after.get(far.id)).json()) as {
          status: string;
          platformPostId: string | null;
        };
        return post.status === 'published' ? post : undefined;
      },
      { what: 'the far post' },
    );
    expect(farPost.platformPostId).toMatch(/^\d{19}$/);
    // The near post's message lived in the old process's queue: the host re-sends it at start, not
    // once the reconciler (here: hourly) finds it two minutes overdue.
    const nearPost = await eventually(
      async () => {
        const post = (await (await after.get(near.id)).json()) as { status: string; attempts: number };
        return post.status === 'published' ? post : undefined;
      },
      { what: 'the near post' },
    );
    expect(nearPost.attempts).toBe(1);
  });
});

/**
 * A post a worker of the old process held (publishing, its lease still running) is taken back once
 * the lease runs out, and not before: the worker might still be alive. The clock is the test's, so
 * the 20 s lease passes without waiting.
 */
describe('a restart while a worker held a post', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-restart-held-'));
  const clock = fixedClock(Date.now());
  const hosts: TestHost[] = [];
  afterAll(async () => {
    for (const host of hosts) await host.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes the post back when its lease ends and publishes what the network has, once', async () => {
    // Prepare: a post as a worker killed mid-call leaves it, its network post already made.
    const host = await startTestHost({
      clock,
      dataDir,
      delivery: { sandboxLatencyMs: { min: 0, max: 0 }, reconcileIntervalMs: 3_600_000 },
    });
    hosts.push(host);
    const tenant = await host.admin.bootstrap({ name: 'Held' });
    const posts = postsClient(host, tenant);
    const { id } = (await (
      await posts.create(tweet(tenant, { status: 'draft', content: 'Held' }))
    ).json()) as {
      id: string;
    };
    const stored = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
    await host.deps.posts.update(
      {
        ...stored,
        status: 'publishing',
        attempts: 1,
        version: stored.version + 1,
        delivery: { leaseId: 'dead-worker', leaseUntil: new Date(clock.now() + LEASE_MS).toISOString() },
      },
      stored.version,
    );
    const ledger = makeDynamoSandboxLedger(
      makeDocumentClient(makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint })),
      host.config.tables.main,
    );
    await ledger.record(id, {
      platformPostId: '1222222222222222222',
      platformPostUrl: 'https://x.com/sandbox_short/status/1222222222222222222',
      publishedAt: new Date(clock.now()).toISOString(),
    });
    const status = async () => ((await (await posts.get(id)).json()) as { status: string }).status;

    // Act and assess: while the lease runs, the reconciler leaves the post alone.
    clock.advance(LEASE_MS - 1000);
    await host.delivery?.reconcileNow();
    expect(await status()).toBe('publishing');

    // Once it has run out, the post is settled from what the network has.
    clock.advance(2000);
    await host.delivery?.reconcileNow();
    expect((await (await posts.get(id)).json()) as Record<string, unknown>).toMatchObject({
      status: 'published',
      attempts: 1,
      platformPostId: '1222222222222222222',
    });
  });
});
