import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../shared/domain/posts.js';
import { type Clock, fixedClock } from '../../shared/ports/clock.js';
import type { DeliveredEvent } from '../../shared/ports/webhook-store.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { FEED_SETTLE_MS } from '../../shared/services/webhooks/read-feed.js';
import { expectEnvelope } from '../support/envelope.js';
import { eventually } from '../support/eventually.js';
import { postsClient } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/** A clock the test moves, that also moves a millisecond at each read, as a real one does. */
function movingClock(start: number): Clock & { advance(ms: number): void } {
  const clock = fixedClock(start);
  return {
    now() {
      clock.advance(1);
      return clock.now();
    },
    advance: clock.advance,
  };
}

const HOUR_MS = 3_600_000;

/**
 * Issue 28: a sandbox post published on the local host has its metrics collected on schedule
 * (through the outbox, the scheduler and the delivery worker, with the sandbox's numbers growing
 * with the clock), read back through REST, announced as post.metrics in the feed; the refresh's
 * 409 and 429.
 */
describe('metrics collection on the local host, on a clock the test advances', () => {
  const clock = movingClock(Date.UTC(2031, 4, 5, 9, 0, 20));
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;

  beforeAll(async () => {
    host = await startTestHost({ clock, delivery: { sandboxLatencyMs: { min: 0, max: 0 } } });
    tenant = await host.admin.bootstrap({ name: 'Measured', planTier: 'enterprise' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  const stored = async (id: string) =>
    (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
  const publishLinkedIn = async (content: string) => {
    const created = await posts.create({
      platform: 'linkedin',
      accountId: tenant.accounts.linkedin,
      status: 'publish',
      postType: 'text',
      content,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await eventually(async () => ((await stored(id)).status === 'published' ? true : undefined), {
      timeoutMs: 15_000,
      what: `post ${id} to be published`,
    });
    return id;
  };
  const refresh = (id: string) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/posts/${id}/metrics/refresh`, {
      method: 'POST',
      apiKey: tenant.apiKey,
    });
  const feedOf = async (postId: string) => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/events?limit=100`, {
      apiKey: tenant.apiKey,
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: DeliveredEvent[] };
    return data.filter((event) => event.data.postId === postId);
  };

  it('reads a published post an hour later, stores the reading, sends post.metrics, and sets the 6 h slot', async () => {
    // Prepare
    const id = await publishLinkedIn('Spring catalogue');
    const published = await stored(id);
    expect(published.metrics?.collection?.nextCollectAt).toBe(
      new Date(Date.parse(published.publishedAt as string) + HOUR_MS).toISOString(),
    );

    // The sandbox account has no reading before its posts' first collection: not collected yet.
    const accountMetrics = () =>
      host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${tenant.accounts.linkedin}/metrics`, {
        apiKey: tenant.apiKey,
      });
    const unread = await accountMetrics();
    await expectEnvelope(unread, 409, 'metrics_not_collected_yet');

    // Act
    clock.advance(HOUR_MS + 1_000);
    const read = await eventually(
      async () => {
        const post = await stored(id);
        return (post.metrics?.readings.length ?? 0) > 0 ? post : undefined;
      },
      { timeoutMs: 15_000, what: `post ${id}'s first reading` },
    );

    // Assess
    const reading = read.metrics?.readings[0];
    expect(Object.keys(reading?.metrics ?? {}).length).toBeGreaterThan(0);
    expect(read.metrics?.collection?.nextCollectAt).toBe(
      new Date(Date.parse(read.publishedAt as string) + 6 * HOUR_MS).toISOString(),
    );
    const answer = await host.call(`/v1/workspaces/${tenant.workspaceId}/posts/${id}/metrics`, {
      apiKey: tenant.apiKey,
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ postId: id, metrics: reading?.metrics });
    // The collection took the sandbox account's reading of the day too, with the post's.
    const account = await eventually(
      async () => {
        const response = await accountMetrics();
        return response.status === 200 ? ((await response.json()) as Record<string, unknown>) : undefined;
      },
      { timeoutMs: 15_000, what: "the sandbox account's first reading" },
    );
    expect(account).toMatchObject({
      accountId: tenant.accounts.linkedin,
      platform: 'linkedin',
      problem: null,
    });
    expect(String(account.collectedAt).slice(0, 10)).toBe(reading?.collectedAt.slice(0, 10));
    expect((account.metrics as Record<string, number>).followers).toBeGreaterThan(0);
    expect(account.history).toHaveLength(1);
    clock.advance(FEED_SETTLE_MS + 1_000);
    const events = await eventually(
      async () => {
        const mine = await feedOf(id);
        return mine.some((event) => event.type === 'post.metrics') ? mine : undefined;
      },
      { what: `the feed to show post ${id}'s metrics` },
    );
    expect(events.find((event) => event.type === 'post.metrics')?.data).toMatchObject({
      postId: id,
      platform: 'linkedin',
      collectedAt: reading?.collectedAt,
      metrics: reading?.metrics,
    });

    // A refresh within 15 minutes of that reading: 429 with Retry-After.
    const tooSoon = await refresh(id);
    await expectEnvelope(tooSoon, 429, 'rate_limited');
    expect(Number(tooSoon.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('a refresh reads the post now, leaving the schedule’s next slot in place', async () => {
    const id = await publishLinkedIn('Summer catalogue');
    clock.advance(20 * 60_000);
    const accepted = await refresh(id);
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toMatchObject({ postId: id, latest: null });
    const read = await eventually(
      async () => {
        const post = await stored(id);
        return (post.metrics?.readings.length ?? 0) > 0 ? post : undefined;
      },
      { timeoutMs: 15_000, what: `post ${id}'s refreshed reading` },
    );
    expect(read.metrics?.collection?.nextCollectAt).toBe(
      new Date(Date.parse(read.publishedAt as string) + HOUR_MS).toISOString(),
    );
  });

  it('a refresh of a post that is not published answers 409 post_not_published', async () => {
    const created = await posts.create({
      platform: 'linkedin',
      accountId: tenant.accounts.linkedin,
      status: 'draft',
      postType: 'text',
      content: 'Not yet',
    });
    const { id } = (await created.json()) as { id: string };
    await expectEnvelope(await refresh(id), 409, 'post_not_published');
  });

  it('a post the network deleted stops its schedule with problem not_found', async () => {
    const id = await publishLinkedIn('Gone soon [sandbox:metrics_not_found]');
    clock.advance(HOUR_MS + 1_000);
    const stopped = await eventually(
      async () => {
        const post = await stored(id);
        return post.metrics?.problem ? post : undefined;
      },
      { timeoutMs: 15_000, what: `post ${id}'s problem` },
    );
    expect(stopped.metrics?.problem?.failure).toBe('not_found');
    expect(stopped.metrics?.collection).toBeUndefined();
  });
});
