import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { fixedClock } from '../../shared/ports/clock.js';
import type { DeliveredEvent } from '../../shared/ports/webhook-store.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { FEED_SETTLE_MS } from '../../shared/services/webhooks/read-feed.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

// 20 s into a minute, far from any rate-limit window edge.
const NOW = Date.UTC(2030, 0, 1, 12, 0, 20);
const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

interface FeedPage {
  data: DeliveredEvent[];
  nextCursor: string | null;
}

describe('GET /v1/workspaces/{workspace_id}/events', () => {
  const clock = fixedClock(NOW);
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost({ clock });
  });
  afterAll(async () => {
    await host.stop();
  });
  afterEach(() => clock.set(NOW));

  /** A tenant of its own per test, so each test sees only its events. */
  const aTenant = () => host.admin.bootstrap({ name: 'Feed', planTier: 'enterprise' });

  /** Appends an event of `type` that happened `agoMs` before NOW, as the fan-out does. */
  const append = async (
    tenant: BootstrapResult,
    agoMs: number,
    type = 'post.published',
    workspaceId = tenant.workspaceId,
  ) => {
    const at = NOW - agoMs;
    const event: DeliveredEvent = {
      id: newId('event', at),
      type,
      createdAt: iso(at),
      workspaceId,
      data: { postId: newId('post', at), status: type.split('.')[1] ?? 'x' },
    };
    await host.deps.webhooks.appendEvents([{ ...event, tenantId: tenant.tenantId }]);
    return event;
  };

  const read = (tenant: BootstrapResult, query = '', apiKey = tenant.apiKey) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/events${query}`, { apiKey });
  const page = async (tenant: BootstrapResult, query = '') => {
    const response = await read(tenant, query);
    expect(response.status).toBe(200);
    return (await response.json()) as FeedPage;
  };

  it('answers the events in order, as webhooks receive them, whatever order they arrived in', async () => {
    // Prepare
    const tenant = await aTenant();
    const third = await append(tenant, 10_000, 'post.failed');
    const first = await append(tenant, 30_000, 'post.queued');
    const second = await append(tenant, 20_000);

    // Act
    const response = await read(tenant);

    // Assess
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ data: [first, second, third], nextCursor: null });
    expect(text).not.toContain(tenant.tenantId);
  });

  it('reads after an event id (exclusive), and pages with nextCursor as `after`', async () => {
    // Prepare
    const tenant = await aTenant();
    const events = [];
    for (let i = 7; i >= 1; i--) events.push(await append(tenant, i * 10_000));

    // Act
    const afterSecond = await page(tenant, `?after=${events[1]?.id}`);
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const result = await page(tenant, `?limit=3${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(result.data.length).toBeLessThanOrEqual(3);
      seen.push(...result.data.map((event) => event.id));
      after = result.nextCursor;
      pages++;
    } while (after);

    // Assess
    expect(afterSecond.data).toEqual(events.slice(2));
    expect(seen).toEqual(events.map((event) => event.id));
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('narrows to `types`, comma-separated, across pages', async () => {
    // Prepare
    const tenant = await aTenant();
    const types = ['post.queued', 'post.published', 'post.failed', 'approval.requested'];
    const events = [];
    for (let i = 0; i < 8; i++) events.push(await append(tenant, (10 - i) * 10_000, types[i % types.length]));
    const wanted = events.filter(
      (event) => event.type === 'post.failed' || event.type === 'approval.requested',
    );

    // Act
    const seen: DeliveredEvent[] = [];
    let after: string | null = null;
    do {
      const query = new URLSearchParams({
        types: 'post.failed,approval.requested',
        limit: '3',
        ...(after && { after }),
      });
      const result = await page(tenant, `?${query}`);
      seen.push(...result.data);
      after = result.nextCursor;
    } while (after);

    // Assess
    expect(seen).toEqual(wanted);
  });

  it.each([
    ['an unknown event name', '?types=post.published,post.deleted', 'types'],
    ['the test event, which is never in the feed', '?types=webhook.test', 'types'],
    ['a limit over 100', '?limit=101', 'limit'],
    ['an `after` that is neither an event id nor a cursor', '?after=yesterday', 'after'],
  ])('refuses %s with 400 INVALID_REQUEST naming it', async (_case, query, field) => {
    // Prepare
    const tenant = await aTenant();

    // Act
    const response = await read(tenant, query);

    // Assess
    const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
    expect(Object.keys(body.details as object)).toEqual([field]);
  });

  it('refuses a cursor used with other types than the page that gave it', async () => {
    // Prepare
    const tenant = await aTenant();
    for (let i = 3; i >= 1; i--) await append(tenant, i * 10_000, 'post.failed');
    const cursor = (await page(tenant, '?types=post.failed&limit=1')).nextCursor ?? '';

    // Act
    const response = await read(tenant, `?types=post.queued&after=${encodeURIComponent(cursor)}`);

    // Assess
    const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
    expect(Object.keys(body.details as object)).toEqual(['after']);
  });

  it('keeps 30 days: an older event is never shown, and events leave as the clock moves on', async () => {
    // Prepare
    const tenant = await aTenant();
    await append(tenant, 31 * DAY_MS);
    const old = await append(tenant, 29 * DAY_MS);
    const recent = await append(tenant, DAY_MS);

    // Act
    const now = await page(tenant);
    clock.advance(2 * DAY_MS);
    const later = await page(tenant);
    const fromOld = await page(tenant, `?after=${old.id}`);

    // Assess
    expect(now.data).toEqual([old, recent]);
    expect(later.data).toEqual([recent]);
    expect(fromOld.data).toEqual([recent]);
  });

  it(`shows an event ${FEED_SETTLE_MS / 1000} s after its change, so a reader at the head never steps past a late one`, async () => {
    // Prepare
    const tenant = await aTenant();
    const settled = await append(tenant, FEED_SETTLE_MS + 1_000);
    const fresh = await append(tenant, 1_000);

    // Act
    const before = await page(tenant);
    clock.advance(FEED_SETTLE_MS);
    const after = await page(tenant, `?after=${settled.id}`);

    // Assess
    expect(before).toEqual({ data: [settled], nextCursor: null });
    expect(after.data).toEqual([fresh]);
  });

  it("never shows another workspace's or tenant's events", async () => {
    // Prepare
    const tenant = await aTenant();
    const second = await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Second' });
    const own = await append(tenant, 30_000);
    await append(tenant, 20_000, 'post.published', second.workspaceId);
    const stranger = await aTenant();
    await append(stranger, 10_000);

    // Act
    const mine = await page(tenant);
    const strangerAsksMine = await read(tenant, '', stranger.apiKey);

    // Assess
    expect(mine.data).toEqual([own]);
    await expectEnvelope(strangerAsksMine, 404, 'not_found');
  });

  it('needs posts:read, not webhooks:manage', async () => {
    // Prepare
    const tenant = await aTenant();
    await append(tenant, 30_000);
    const keyWith = async (permissions: ('posts:read' | 'webhooks:manage')[]) => {
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: tenant.tenantId,
          name: permissions.join(' '),
          fromWorkspaceId: tenant.workspaceId,
          permissions,
        },
      );
      return (await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId })).plaintext;
    };

    // Act
    const reader = await read(tenant, '', await keyWith(['posts:read']));
    const manager = await read(tenant, '', await keyWith(['webhooks:manage']));

    // Assess
    expect(reader.status).toBe(200);
    expect(((await reader.json()) as FeedPage).data).toHaveLength(1);
    const refused = await expectEnvelope(manager, 403, 'permission_denied');
    expect(refused.required).toBe('posts:read');
  });
});
