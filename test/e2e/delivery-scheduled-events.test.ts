import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, fixedClock } from '../../shared/ports/clock.js';
import type { DeliveredEvent } from '../../shared/ports/webhook-store.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { FEED_SETTLE_MS } from '../../shared/services/webhooks/read-feed.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * A clock the test moves forward, which also moves on a millisecond each time it is read, as a
 * real one does between two writes: the claim of a post and its publication are then apart in time.
 */
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

const MINUTE_MS = 60_000;

/**
 * Issue 23, item 5: a scheduled post that comes due is queued for delivery (interface section 3),
 * so its events are post.scheduled, post.queued, post.published, each once and in that order, in
 * the feed webhooks read from; whether the schedule (far ahead) or a delayed message (soon) fired it.
 */
describe('a scheduled post coming due, on a clock the test advances', () => {
  const clock = movingClock(Date.UTC(2031, 2, 3, 9, 0, 20));
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;

  beforeAll(async () => {
    host = await startTestHost({ clock, delivery: { sandboxLatencyMs: { min: 0, max: 0 } } });
    tenant = await host.admin.bootstrap({ name: 'Due', planTier: 'enterprise' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  const statusOf = async (id: string) => ((await (await posts.get(id)).json()) as { status: string }).status;
  const feedOf = async (postId: string) => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/events?limit=100`, {
      apiKey: tenant.apiKey,
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: DeliveredEvent[] };
    return data.filter((event) => event.data.postId === postId);
  };

  it.each([
    ['a schedule', 3 * 60],
    ['a delayed delivery message', 10],
  ])(
    'fired by %s: post.queued once, after post.scheduled and before post.published',
    async (_how, minutes) => {
      // Prepare
      const scheduledAt = new Date(clock.now() + minutes * MINUTE_MS).toISOString();
      const created = await posts.create(tweet(tenant, { status: 'scheduled', scheduledAt }));
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };

      // Act
      clock.advance(minutes * MINUTE_MS + 1_000);
      await eventually(async () => ((await statusOf(id)) === 'published' ? true : undefined), {
        timeoutMs: 15_000,
        what: `post ${id} to be published`,
      });
      clock.advance(FEED_SETTLE_MS + 1_000);
      const events = await eventually(
        async () => {
          const mine = await feedOf(id);
          return mine.some((event) => event.type === 'post.published') ? mine : undefined;
        },
        { what: `the feed to show post ${id} published` },
      );

      // Assess
      expect(events.map((event) => event.type)).toEqual(['post.scheduled', 'post.queued', 'post.published']);
      const queued = events[1];
      expect(queued?.data).toMatchObject({ postId: id, status: 'queued', scheduledAt });
      expect(Date.parse(queued?.createdAt ?? '')).toBeGreaterThanOrEqual(Date.parse(scheduledAt));
    },
  );
});
