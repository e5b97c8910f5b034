import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/ports/clock.js';
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

  it('publishes after the restart a post scheduled before it (persisted schedule), and one whose message was lost', async () => {
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
    // The near post's message lived in the old process's queue; the reconciler re-drives it.
    expect(((await (await after.get(near.id)).json()) as { status: string }).status).toBe('scheduled');
    await second.delivery?.reconcileNow();
    await eventually(
      async () => {
        const post = (await (await after.get(near.id)).json()) as { status: string };
        return post.status === 'published' ? post : undefined;
      },
      { what: 'the near post' },
    );
  });
});
