import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { PLATFORM_IDS } from '../../shared/networks/definitions.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { postsClient, seedMedia, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * Issue 9, finding 1: every list answers 400 INVALID_REQUEST (details naming the field) to a range
 * or a cursor that does not fit its query, and never 500; a lone scheduledTo is the collision check.
 */
interface Page {
  data: { id?: string; mediaId?: string; scheduledAt?: string | null }[];
  nextCursor: string | null;
}

const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const forge = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

describe('list ranges and cursors over HTTP', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let other: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  /** A key of an agent of scope `all`, which sees the tenant's three workspaces. */
  let allKey: string;
  const times: string[] = [];

  const get = (path: string, apiKey = tenant.apiKey) => host.call(path, { apiKey });
  const page = async (path: string, apiKey = tenant.apiKey) => {
    const response = await get(path, apiKey);
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  };
  const firstCursor = async (path: string, apiKey = tenant.apiKey) => {
    const cursor = (await page(path, apiKey)).nextCursor;
    if (!cursor) throw new Error(`${path} gave no nextCursor`);
    return cursor;
  };
  const expectCursorRefused = async (response: Response) => {
    const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
    expect(body.details).toEqual({ cursor: [expect.any(String)] });
  };

  const keyOfScopeAll = async (owner: BootstrapResult) => {
    const agent = await host.admin.createAgent(
      { role: 'super_admin' },
      { tenantId: owner.tenantId, name: 'Everything', scope: { kind: 'all' } },
    );
    return (await host.admin.createApiKey({ tenantId: owner.tenantId, agentId: agent.agentId })).plaintext;
  };

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Cursors' });
    other = await host.admin.bootstrap({ name: 'Other' });
    await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Second' });
    await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Third' });
    allKey = await keyOfScopeAll(tenant);
    posts = postsClient(host, tenant);
    for (const hours of [4, 1, 3, 2]) {
      const scheduledAt = hoursAhead(hours);
      const response = await posts.create(tweet(tenant, { status: 'scheduled', scheduledAt }));
      expect(response.status).toBe(201);
      times.push(scheduledAt);
    }
    times.sort();
    for (const content of ['one', 'two', 'three']) {
      expect((await posts.create(tweet(tenant, { status: 'draft', content }))).status).toBe(201);
    }
    for (let i = 0; i < 3; i++) await seedMedia(host, tenant, 'image/png');
    await seedMedia(host, other, 'image/png');
    await seedMedia(host, other, 'image/png');
  });
  afterAll(async () => {
    await host.stop();
  });

  describe('GET .../posts?status=scheduled ranges', () => {
    it('answers a lone scheduledTo (the collision check) with the posts up to that time', async () => {
      const { data } = await page(`${posts.base}?status=scheduled&scheduledTo=${times[1]}`);
      expect(data.map((post) => post.scheduledAt)).toEqual(times.slice(0, 2));
    });

    it('answers a lone scheduledFrom with the posts from that time on', async () => {
      const { data } = await page(`${posts.base}?status=scheduled&scheduledFrom=${times[2]}`);
      expect(data.map((post) => post.scheduledAt)).toEqual(times.slice(2));
    });

    it('pages a lone scheduledTo without gaps or repeats', async () => {
      const seen: (string | null | undefined)[] = [];
      let cursor: string | null = null;
      do {
        const query = `?status=scheduled&scheduledTo=${times[2]}&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
        const next: Page = await page(`${posts.base}${query}`);
        seen.push(...next.data.map((post) => post.scheduledAt));
        cursor = next.nextCursor;
      } while (cursor);
      expect(seen).toEqual(times.slice(0, 3));
    });

    it('answers 400 naming scheduledFrom when it is later than scheduledTo', async () => {
      const response = await get(
        `${posts.base}?status=scheduled&scheduledFrom=${times[3]}&scheduledTo=${times[0]}`,
      );
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(body.details).toEqual({ scheduledFrom: [expect.stringContaining('scheduledTo')] });
    });

    it('answers 400 to an inverted range on the other statuses too', async () => {
      const response = await get(
        `${posts.base}?status=draft&scheduledFrom=${times[3]}&scheduledTo=${times[0]}`,
      );
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(Object.keys(body.details as object)).toEqual(['scheduledFrom']);
    });
  });

  describe('GET .../posts cursors', () => {
    it('refuses a nextCursor of a status=draft page reused on a scheduled range', async () => {
      const cursor = await firstCursor(`${posts.base}?status=draft&limit=1`);
      await expectCursorRefused(
        await get(
          `${posts.base}?status=scheduled&scheduledFrom=${times[0]}&scheduledTo=${times[3]}&cursor=${cursor}`,
        ),
      );
      await expectCursorRefused(
        await get(`${posts.base}?status=scheduled&scheduledTo=${times[3]}&cursor=${cursor}`),
      );
    });

    it('refuses a nextCursor of one scheduled range reused on another', async () => {
      const cursor = await firstCursor(`${posts.base}?status=scheduled&scheduledFrom=${times[0]}&limit=1`);
      await expectCursorRefused(
        await get(
          `${posts.base}?status=scheduled&scheduledFrom=${times[2]}&scheduledTo=${times[3]}&cursor=${cursor}`,
        ),
      );
    });

    it('refuses a nextCursor of a filtered list reused with another filter or none', async () => {
      const cursor = await firstCursor(`${posts.base}?status=scheduled&limit=1`);
      await expectCursorRefused(await get(`${posts.base}?cursor=${cursor}`));
      await expectCursorRefused(await get(`${posts.base}?status=draft&cursor=${cursor}`));
      await expectCursorRefused(
        await get(`${posts.base}?status=scheduled&platform=linkedin&cursor=${cursor}`),
      );
    });

    it('still follows a nextCursor on the query that gave it, whatever the page size', async () => {
      const query = `?status=scheduled&scheduledFrom=${times[0]}&scheduledTo=${times[3]}`;
      const cursor = await firstCursor(`${posts.base}${query}&limit=1`);
      const { data } = await page(`${posts.base}${query}&limit=10&cursor=${cursor}`);
      expect(data.map((post) => post.scheduledAt)).toEqual(times.slice(1));
    });

    it.each([
      ['a position below the range', { sk: 'POST#pst_1', gsi1sk: '2000-01-01T00:00:00.000Z#pst_1' }],
      ['a position above the range', { sk: 'POST#pst_1', gsi1sk: '9999-01-01T00:00:00.000Z#pst_1' }],
      ['a bare post id', { sk: 'POST#pst_1', gsi1sk: 'pst_1' }],
      ['an empty position', { sk: 'POST#', gsi1sk: '' }],
      ['a sort key over 1 KiB', { sk: `POST#${'€'.repeat(500)}`, gsi1sk: `${times[1]}#pst_1` }],
      ['a lone surrogate', { sk: 'POST#\ud800', gsi1sk: `${times[1]}#pst_1` }],
    ])('refuses a forged cursor with %s on a scheduled range', async (_label, position) => {
      const range = `scheduledFrom=${times[0]}&scheduledTo=${times[3]}`;
      await expectCursorRefused(
        await get(`${posts.base}?status=scheduled&${range}&cursor=${forge(position)}`),
      );
      await expectCursorRefused(
        await get(`${posts.base}?status=scheduled&scheduledTo=${times[3]}&cursor=${forge(position)}`),
      );
    });

    it.each([
      ['a sort key over 1 KiB', { sk: `POST#${'€'.repeat(500)}` }],
      ['a lone surrogate', { sk: 'POST#\udfff' }],
    ])('refuses a forged cursor with %s on the newest-first list', async (_label, position) => {
      await expectCursorRefused(await get(`${posts.base}?cursor=${forge(position)}`));
    });
  });

  describe('the other lists', () => {
    it('refuses a nextCursor of one list on another', async () => {
      const media = await firstCursor(`/v1/workspaces/${tenant.workspaceId}/media?limit=1`);
      const accounts = await firstCursor(`/v1/workspaces/${tenant.workspaceId}/accounts?limit=1`);
      const workspaces = await firstCursor('/v1/workspaces?limit=1', allKey);
      await expectCursorRefused(await get(`/v1/workspaces/${tenant.workspaceId}/accounts?cursor=${media}`));
      await expectCursorRefused(await get(`/v1/workspaces/${tenant.workspaceId}/media?cursor=${accounts}`));
      await expectCursorRefused(await get(`/v1/workspaces?cursor=${accounts}`));
      await expectCursorRefused(await get(`${posts.base}?cursor=${workspaces}`));
    });

    it('refuses an accounts cursor reused with another platform filter', async () => {
      const cursor = await firstCursor(`/v1/workspaces/${tenant.workspaceId}/accounts?limit=1`);
      await expectCursorRefused(
        await get(`/v1/workspaces/${tenant.workspaceId}/accounts?platform=youtube&cursor=${cursor}`),
      );
    });

    it("refuses another tenant's media cursor", async () => {
      const cursor = await firstCursor(`/v1/workspaces/${other.workspaceId}/media?limit=1`, other.apiKey);
      await expectCursorRefused(await get(`/v1/workspaces/${tenant.workspaceId}/media?cursor=${cursor}`));
    });

    it.each([
      ['workspaces', () => '/v1/workspaces', { sk: `WORKSPACE#${'€'.repeat(500)}` }],
      ['accounts', () => `/v1/workspaces/${tenant.workspaceId}/accounts`, { sk: 'ACCOUNT#\ud800' }],
      ['media', () => `/v1/workspaces/${tenant.workspaceId}/media`, { sk: `MEDIA#${'€'.repeat(500)}` }],
    ])('refuses a forged %s cursor that DynamoDB could not take', async (_label, path, position) => {
      await expectCursorRefused(await get(`${path()}?cursor=${forge(position)}`));
    });

    it('still pages every list to its end', async () => {
      const walk = async (path: string) => {
        let count = 0;
        let cursor: string | null = null;
        do {
          const next: Page = await page(
            `${path}${path.includes('?') ? '&' : '?'}limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          );
          count += next.data.length;
          cursor = next.nextCursor;
        } while (cursor);
        return count;
      };
      expect(await walk('/v1/workspaces')).toBe(1);
      // Bootstrap's sandbox accounts: one per network.
      expect(await walk(`/v1/workspaces/${tenant.workspaceId}/accounts`)).toBe(PLATFORM_IDS.length);
      expect(await walk(`/v1/workspaces/${tenant.workspaceId}/accounts?platform=x`)).toBe(1);
      expect(await walk(`/v1/workspaces/${tenant.workspaceId}/media`)).toBe(3);
      expect(await walk(`${posts.base}?status=draft`)).toBe(3);
    });
  });

  /**
   * Issue 23, item 9: a page looks one item ahead, so a list whose last page is exactly full says
   * so (nextCursor null) and a client walking it makes no request for an empty page; filters and a
   * `selected` agent's view included.
   */
  describe('a full last page', () => {
    let full: BootstrapResult;
    let fullAllKey: string;
    let webhookId: string;
    const base = () => `/v1/workspaces/${full.workspaceId}`;
    const minuteAgo = Date.now() - 60_000;

    beforeAll(async () => {
      full = await host.admin.bootstrap({ name: 'Full pages', planTier: 'enterprise' });
      await host.admin.createWorkspace({ tenantId: full.tenantId, name: 'Unseen one' });
      await host.admin.createWorkspace({ tenantId: full.tenantId, name: 'Unseen two' });
      fullAllKey = await keyOfScopeAll(full);
      const drafts = postsClient(host, full);
      for (const content of ['a', 'b', 'c']) {
        expect((await drafts.create(tweet(full, { status: 'draft', content }))).status).toBe(201);
      }
      for (let i = 0; i < 2; i++) await seedMedia(host, full, 'image/png');
      const webhookIds: string[] = [];
      for (const path of ['/one', '/two']) {
        const response = await host.call(`${base()}/webhooks`, {
          method: 'POST',
          apiKey: full.apiKey,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ url: `https://receiver.example.com${path}`, events: ['post.published'] }),
        });
        expect(response.status).toBe(201);
        webhookIds.push(((await response.json()) as { id: string }).id);
      }
      webhookId = webhookIds[0] as string;
      const events = [0, 1, 2].map((i) => {
        const at = minuteAgo + i * 1_000;
        return {
          id: newId('event', at),
          type: i === 1 ? 'post.failed' : 'post.published',
          createdAt: new Date(at).toISOString(),
          workspaceId: full.workspaceId,
          data: { postId: newId('post', at), status: i === 1 ? 'failed' : 'published' },
        };
      });
      await host.deps.webhooks.appendEvents(events.map((event) => ({ ...event, tenantId: full.tenantId })));
      for (const event of events) {
        await host.deps.webhooks.createDelivery({
          tenantId: full.tenantId,
          workspaceId: full.workspaceId,
          webhookId,
          event,
          createdAt: event.createdAt,
        });
      }
    });

    /** Each list: its path, how many items it holds, and the key that reads it (the owner's by default). */
    const lists: [string, () => string, number, (() => string)?][] = [
      ['workspaces (1 of the 3 visible to the key)', () => '/v1/workspaces', 1],
      ['workspaces (all 3, to an agent of scope all)', () => '/v1/workspaces', 3, () => fullAllKey],
      ['posts', () => `${base()}/posts`, 3],
      ['posts by status and platform (filtered)', () => `${base()}/posts?status=draft&platform=twitter`, 3],
      ['accounts', () => `${base()}/accounts`, PLATFORM_IDS.length],
      ['accounts of one platform (filtered)', () => `${base()}/accounts?platform=x`, 1],
      ['media', () => `${base()}/media`, 2],
      ['webhooks', () => `${base()}/webhooks`, 2],
      ['deliveries', () => `${base()}/webhooks/${webhookId}/deliveries`, 3],
      ['pending deliveries', () => `${base()}/webhooks/${webhookId}/deliveries?status=pending`, 3],
      ['events', () => `${base()}/events`, 3],
      ['events of one type (filtered)', () => `${base()}/events?types=post.published`, 2],
    ];
    const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;
    // The feed reads on from `after` (an event id or its nextCursor); every other list from `cursor`.
    const following = (path: string, cursor: string) =>
      `${path.includes('/events') ? 'after' : 'cursor'}=${cursor}`;

    it.each(lists)(
      '%s: nextCursor is null on a page that holds the last item',
      async (_list, path, size, key) => {
        // Act
        const apiKey = key?.() ?? full.apiKey;
        const exact = await page(withQuery(path(), `limit=${size}`), apiKey);
        const larger = await page(withQuery(path(), `limit=${size + 1}`), apiKey);

        // Assess
        expect(exact.data).toHaveLength(size);
        expect(exact.nextCursor).toBeNull();
        expect(larger.data).toHaveLength(size);
        expect(larger.nextCursor).toBeNull();
      },
    );

    it.each(lists.filter(([, , size]) => size > 1))(
      '%s: a page one short has a cursor, and the page it leads to holds the last item and ends the list',
      async (_list, path, size, key) => {
        // Act
        const apiKey = key?.() ?? full.apiKey;
        const first = await page(withQuery(path(), `limit=${size - 1}`), apiKey);
        const cursor = first.nextCursor;
        const last = cursor
          ? await page(withQuery(path(), `limit=${size - 1}&${following(path(), cursor)}`), apiKey)
          : undefined;

        // Assess
        expect(first.data).toHaveLength(size - 1);
        expect(cursor).toEqual(expect.any(String));
        expect(last?.data).toHaveLength(1);
        expect(last?.nextCursor).toBeNull();
        const ids = [...first.data, ...(last?.data ?? [])].map((item) => JSON.stringify(item));
        expect(new Set(ids).size).toBe(size);
      },
    );
  });
});
