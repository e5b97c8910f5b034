import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/** How long the slow tenant's network call takes: far longer than the others need in all. */
const SLOW_MS = 8000;

describe('one slow network call delays no other tenant on the local host', () => {
  let host: TestHost;
  let slowTenant: BootstrapResult;
  let otherTenant: BootstrapResult;

  beforeAll(async () => {
    host = await startTestHost({ delivery: { sandboxLatencyMs: { min: 5, max: 20 } } });
    slowTenant = await host.admin.bootstrap({ name: 'Slow network' });
    otherTenant = await host.admin.bootstrap({ name: 'Everyone else' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it(`ten posts of another tenant publish within seconds while a [sandbox:slow:${SLOW_MS}] post is still publishing`, async () => {
    // Prepare: the slow post is in the hands of a worker, waiting on the network.
    const slowPosts = postsClient(host, slowTenant);
    const status = async (posts: ReturnType<typeof postsClient>, id: string) =>
      ((await (await posts.get(id)).json()) as { status: string }).status;
    const created = await slowPosts.create(tweet(slowTenant, { content: `Slow [sandbox:slow:${SLOW_MS}]` }));
    expect(created.status).toBe(201);
    const slowId = ((await created.json()) as { id: string }).id;
    await eventually(async () => ((await status(slowPosts, slowId)) === 'publishing' ? true : undefined), {
      what: 'the slow post to be publishing',
    });
    const slowSince = Date.now();

    // Act: ten posts of another tenant, right after.
    const others = postsClient(host, otherTenant);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await others.create(tweet(otherTenant, { content: `Not held up ${i}` }));
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as { id: string }).id);
    }
    await eventually(
      async () => {
        const statuses = await Promise.all(ids.map((id) => status(others, id)));
        return statuses.every((s) => s === 'published') ? statuses : undefined;
      },
      { timeoutMs: SLOW_MS - 2000, what: 'the ten posts to be published' },
    );

    // Assess: all ten went out while the slow call was still under way.
    expect(Date.now() - slowSince).toBeLessThan(SLOW_MS);
    expect(await status(slowPosts, slowId)).toBe('publishing');
    await eventually(async () => ((await status(slowPosts, slowId)) === 'published' ? true : undefined), {
      timeoutMs: SLOW_MS + 5000,
      what: 'the slow post to be published in the end',
    });
  }, 30_000);

  it('posts created while twelve slow ones hold twelve batches still publish at once (30 batches run together, as in AWS)', async () => {
    // Prepare: twelve slow posts, each claimed before the next is made, so each holds a batch of
    // its own: more than the ten batches the local host used to run at once.
    const slowPosts = postsClient(host, slowTenant);
    const status = async (posts: ReturnType<typeof postsClient>, id: string) =>
      ((await (await posts.get(id)).json()) as { status: string }).status;
    const slowIds: string[] = [];
    for (let i = 0; i < 12; i++) {
      const created = await slowPosts.create(
        tweet(slowTenant, { content: `Slow ${i} [sandbox:slow:${2 * SLOW_MS}]` }),
      );
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { id: string }).id;
      await eventually(async () => ((await status(slowPosts, id)) === 'publishing' ? true : undefined), {
        what: `slow post ${i} to be publishing`,
      });
      slowIds.push(id);
    }

    // Act
    const others = postsClient(host, otherTenant);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await others.create(tweet(otherTenant, { content: `Beside twelve slow ones ${i}` }));
      ids.push(((await response.json()) as { id: string }).id);
    }

    // Assess: published while every slow post is still at the network.
    await eventually(
      async () => {
        const statuses = await Promise.all(ids.map((id) => status(others, id)));
        return statuses.every((s) => s === 'published') ? statuses : undefined;
      },
      { timeoutMs: SLOW_MS, what: 'the five posts to be published' },
    );
    const slowStatuses = await Promise.all(slowIds.map((id) => status(slowPosts, id)));
    expect(slowStatuses).toEqual(slowIds.map(() => 'publishing'));
    await eventually(
      async () => {
        const statuses = await Promise.all(slowIds.map((id) => status(slowPosts, id)));
        return statuses.every((s) => s === 'published') ? statuses : undefined;
      },
      { timeoutMs: 60_000, what: 'the slow posts to be published in the end' },
    );
  }, 150_000);
});
