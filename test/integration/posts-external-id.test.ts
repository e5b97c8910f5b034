import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { inOneHour, postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface Listed {
  id: string;
  externalId: string | null;
  status: string;
}
interface Page {
  data: Listed[];
  nextCursor: string | null;
}

/**
 * externalId: the caller's own id for a post (a calendar entry), returned on read and listed by,
 * exactly or by prefix, through the externalId index of DynamoDB Local.
 */
describe('externalId on posts', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let other: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  const idOf = new Map<string, string>();

  const create = async (externalId: string, overrides: Record<string, unknown> = {}) => {
    const response = await posts.create(
      tweet(tenant, { status: 'scheduled', scheduledAt: inOneHour(), externalId, ...overrides }),
    );
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    idOf.set(externalId, id);
    return id;
  };
  const list = async (query: string, client = posts) => {
    const response = await client.list(query);
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  };
  /** Every page of a listing, following nextCursor. */
  const listAll = async (query: string) => {
    const seen: Listed[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    return seen;
  };

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'External ids' });
    other = await host.admin.bootstrap({ name: 'Another tenant' });
    posts = postsClient(host, tenant);
    // Ids that share prefixes, and a '#' that must not end an exact match early.
    for (const externalId of ['launch/b', 'launch/a', 'launch/a#2', 'launch/ab', 'launchpad/x', 'other/a']) {
      await create(externalId);
    }
    await posts.create(tweet(tenant, { status: 'scheduled', scheduledAt: inOneHour(), content: 'no id' }));
    await postsClient(host, other).create(
      tweet(other, { status: 'scheduled', scheduledAt: inOneHour(), externalId: 'launch/a' }),
    );
  });
  afterAll(async () => {
    await host.stop();
  });

  it('is returned on read, and null on a post without one', async () => {
    const read = (await (await posts.get(idOf.get('launch/a') ?? '')).json()) as Listed;
    expect(read.externalId).toBe('launch/a');
    const { data } = await list('?status=scheduled');
    expect(data.find((post) => post.externalId === null)).toBeDefined();
  });

  it('lists one externalId exactly: not the ids it is a prefix of', async () => {
    const { data } = await list('?externalId=launch%2Fa');
    expect(data.map((post) => post.id)).toEqual([idOf.get('launch/a')]);
  });

  it("lists a prefix in externalId order across pages, within the caller's workspace only", async () => {
    const listed = await listAll('?externalIdPrefix=launch%2F&limit=2');
    expect(listed.map((post) => post.externalId)).toEqual([
      'launch/a',
      'launch/a#2',
      'launch/ab',
      'launch/b',
    ]);
    expect(listed.map((post) => post.id)).toEqual(
      ['launch/a', 'launch/a#2', 'launch/ab', 'launch/b'].map((externalId) => idOf.get(externalId)),
    );
  });

  it('filters the prefix listing by status', async () => {
    const cancelled = await create('launch/gone');
    expect((await posts.cancel(cancelled)).status).toBe(200);
    const scheduled = await listAll('?externalIdPrefix=launch%2F&status=scheduled');
    expect(scheduled.map((post) => post.externalId)).not.toContain('launch/gone');
    const gone = await listAll('?externalIdPrefix=launch%2F&status=cancelled');
    expect(gone.map((post) => post.id)).toEqual([cancelled]);
  });

  it('is changed and removed by PATCH, and the listing follows', async () => {
    const id = await create('moving/one');
    const moved = await posts.patch(id, { externalId: 'moving/two' });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as Listed).externalId).toBe('moving/two');
    expect((await list('?externalId=moving%2Fone')).data).toEqual([]);
    expect((await list('?externalId=moving%2Ftwo')).data.map((post) => post.id)).toEqual([id]);

    const removed = await posts.patch(id, { externalId: null });
    expect(((await removed.json()) as Listed).externalId).toBeNull();
    expect((await list('?externalIdPrefix=moving%2F')).data).toEqual([]);
  });

  it('refuses an externalId with a space, one too long, and both filters at once, naming the field', async () => {
    const spaced = await posts.create(tweet(tenant, { externalId: 'has space' }));
    await expectEnvelope(spaced, 400, 'INVALID_REQUEST');
    const long = await posts.create(tweet(tenant, { externalId: 'x'.repeat(201) }));
    const longBody = (await long.json()) as { details?: Record<string, unknown> };
    expect(long.status).toBe(400);
    expect(JSON.stringify(longBody)).toContain('externalId');
    const both = await posts.list('?externalId=a&externalIdPrefix=a');
    expect(both.status).toBe(400);
    expect(JSON.stringify(await both.json())).toContain('externalIdPrefix');
  });

  it("refuses a prefix listing's cursor on another prefix", async () => {
    const first = await list('?externalIdPrefix=launch%2F&limit=1');
    expect(first.nextCursor).not.toBeNull();
    const misused = await posts.list(
      `?externalIdPrefix=other%2F&limit=1&cursor=${encodeURIComponent(first.nextCursor ?? '')}`,
    );
    expect(misused.status).toBe(400);
  });
});
