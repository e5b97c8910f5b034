import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/** How long the slow tenant's network call takes: far longer than the others need in all. */
const SLOW_MS = 8000;

type Posts = ReturnType<typeof postsClient>;

/**
 * The posts' statuses, in the order of `ids`, from one list request: polling a dozen posts one GET
 * each, every 50 ms, spends the tenant's posts_read limit (600 a minute) in seconds, and a refused
 * read then looks like a post not yet published. A refusal throws instead, so a time-out names it.
 */
async function statusesOf(posts: Posts, ids: readonly string[]): Promise<(string | undefined)[]> {
  const response = await posts.list('?limit=100');
  if (response.status !== 200) throw new Error(`listing the posts answered ${response.status}`);
  const page = (await response.json()) as { data: { id: string; status: string }[] };
  const statusById = new Map(page.data.map((post) => [post.id, post.status]));
  return ids.map((id) => statusById.get(id));
}

const POLL = { intervalMs: 200 };

async function statusOf(posts: Posts, id: string): Promise<string | undefined> {
  return (await statusesOf(posts, [id]))[0];
}

async function allPublished(posts: Posts, ids: readonly string[]): Promise<string[] | undefined> {
  const statuses = await statusesOf(posts, ids);
  return statuses.every((status) => status === 'published') ? (statuses as string[]) : undefined;
}

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
    const created = await slowPosts.create(tweet(slowTenant, { content: `Slow [sandbox:slow:${SLOW_MS}]` }));
    expect(created.status).toBe(201);
    const slowId = ((await created.json()) as { id: string }).id;
    await eventually(async () => ((await statusOf(slowPosts, slowId)) === 'publishing' ? true : undefined), {
      ...POLL,
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
    await eventually(() => allPublished(others, ids), {
      ...POLL,
      timeoutMs: SLOW_MS - 2000,
      what: 'the ten posts to be published',
    });

    // Assess: all ten went out while the slow call was still under way.
    expect(Date.now() - slowSince).toBeLessThan(SLOW_MS);
    expect(await statusOf(slowPosts, slowId)).toBe('publishing');
    await eventually(async () => ((await statusOf(slowPosts, slowId)) === 'published' ? true : undefined), {
      ...POLL,
      timeoutMs: SLOW_MS + 5000,
      what: 'the slow post to be published in the end',
    });
  }, 30_000);

  it('posts created while twelve slow ones hold twelve batches still publish at once (30 batches run together, as in AWS)', async () => {
    // Prepare: twelve slow posts, each claimed before the next is made, so each holds a batch of
    // its own: more than the ten batches the local host used to run at once.
    const slowPosts = postsClient(host, slowTenant);
    const slowIds: string[] = [];
    for (let i = 0; i < 12; i++) {
      const created = await slowPosts.create(
        tweet(slowTenant, { content: `Slow ${i} [sandbox:slow:${2 * SLOW_MS}]` }),
      );
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { id: string }).id;
      await eventually(async () => ((await statusOf(slowPosts, id)) === 'publishing' ? true : undefined), {
        ...POLL,
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
    await eventually(() => allPublished(others, ids), {
      ...POLL,
      timeoutMs: SLOW_MS,
      what: 'the five posts to be published',
    });
    expect(await statusesOf(slowPosts, slowIds)).toEqual(slowIds.map(() => 'publishing'));
    await eventually(() => allPublished(slowPosts, slowIds), {
      ...POLL,
      timeoutMs: 60_000,
      what: 'the slow posts to be published in the end',
    });
  }, 150_000);
});
