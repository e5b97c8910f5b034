import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { fixedClock } from '../../shared/ports/clock.js';
import type { DeliveryKey, DeliveryStatus } from '../../shared/ports/webhook-store.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

// 20 s into a minute, far from any rate-limit window edge.
const NOW = Date.UTC(2030, 0, 1, 12, 0, 20);
const iso = (ms: number) => new Date(ms).toISOString();

interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  responseTimeMs: number | null;
  error: string | null;
  createdAt: string;
  attemptHistory: { at: string; responseStatus: number | null; durationMs: number; error: string | null }[];
}

interface DeliveryPage {
  data: DeliveryRecord[];
  nextCursor: string | null;
}

describe('webhook delivery history, retry and test over HTTP', () => {
  const clock = fixedClock(NOW);
  let host: TestHost;
  let tenant: BootstrapResult;
  let webhookId: string;

  const longPath = (id = webhookId) => `/v1/workspaces/${tenant.workspaceId}/webhooks/${id}`;
  const call = (path: string, method = 'GET') => host.call(path, { method, apiKey: tenant.apiKey });
  const page = async (path: string) => {
    const response = await call(path);
    expect(response.status).toBe(200);
    return (await response.json()) as DeliveryPage;
  };
  const keyOf = (deliveryId: string, id = webhookId): DeliveryKey => ({
    tenantId: tenant.tenantId,
    workspaceId: tenant.workspaceId,
    webhookId: id,
    deliveryId,
  });

  /** A delivery of a post.published event that happened `agoMs` before NOW, through the store. */
  const seedDelivery = async (agoMs: number, id = webhookId) => {
    const eventAt = NOW - agoMs;
    const { delivery } = await host.deps.webhooks.createDelivery({
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      webhookId: id,
      event: {
        id: newId('event', eventAt),
        type: 'post.published',
        createdAt: iso(eventAt),
        workspaceId: tenant.workspaceId,
        data: { postId: newId('post', eventAt), status: 'published' },
      },
      createdAt: iso(eventAt),
    });
    return delivery;
  };

  const newWebhook = async () => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/webhooks`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'https://receiver.example.com/hooks', events: ['post.published'] }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Deliveries', planTier: 'enterprise' });
    webhookId = await newWebhook();
  });
  afterAll(async () => {
    await host.stop();
  });
  afterEach(() => clock.set(NOW));

  describe('GET …/deliveries and GET /v1/webhooks/{webhook_id}/deliveries', () => {
    it('shows each delivery as documented, with every attempt, and nothing internal', async () => {
      // Prepare
      const id = await newWebhook();
      const delivery = await seedDelivery(60_000, id);
      const key = keyOf(delivery.deliveryId, id);
      await host.deps.webhooks.recordAttempt(
        key,
        {
          attempt: {
            at: iso(NOW - 50_000),
            responseStatus: 500,
            durationMs: 41,
            error: 'The receiver answered 500.',
          },
          status: 'pending',
          nextAttemptAt: iso(NOW - 20_000),
        },
        0,
      );
      await host.deps.webhooks.recordAttempt(
        key,
        {
          attempt: { at: iso(NOW - 20_000), durationMs: 5000, error: 'No complete response within 5 s.' },
          status: 'pending',
          nextAttemptAt: iso(NOW + 40_000),
        },
        1,
      );

      // Act
      const long = await call(`${longPath(id)}/deliveries`);
      const short = await call(`/v1/webhooks/${id}/deliveries`);

      // Assess
      expect(long.status).toBe(200);
      const text = await long.text();
      expect(JSON.parse(text)).toEqual({
        data: [
          {
            id: delivery.deliveryId,
            webhookId: id,
            eventId: delivery.eventId,
            eventType: 'post.published',
            status: 'pending',
            attempts: 2,
            lastAttemptAt: iso(NOW - 20_000),
            nextAttemptAt: iso(NOW + 40_000),
            responseStatus: null,
            responseTimeMs: 5000,
            error: 'No complete response within 5 s.',
            createdAt: iso(NOW - 60_000),
            attemptHistory: [
              {
                at: iso(NOW - 50_000),
                responseStatus: 500,
                durationMs: 41,
                error: 'The receiver answered 500.',
              },
              {
                at: iso(NOW - 20_000),
                responseStatus: null,
                durationMs: 5000,
                error: 'No complete response within 5 s.',
              },
            ],
          },
        ],
        nextCursor: null,
      });
      expect(text).not.toContain(tenant.tenantId);
      expect(text).not.toContain('dispatchRequestedAt');
      expect(text).not.toContain('"event"');
      expect(short.status).toBe(200);
      expect(await short.text()).toBe(text);
    });

    it('lists newest first, page by page, and filters by status, in both forms', async () => {
      // Prepare
      const id = await newWebhook();
      const made = [];
      for (let i = 5; i >= 1; i--) made.push(await seedDelivery(i * 60_000, id));
      const [oldest, second, middle, fourth, newest] = made.map((delivery) => delivery.deliveryId) as [
        string,
        string,
        string,
        string,
        string,
      ];
      const attempt = (responseStatus: number) => ({ at: iso(NOW), responseStatus, durationMs: 3 });
      await host.deps.webhooks.recordAttempt(
        keyOf(oldest, id),
        { attempt: attempt(410), status: 'failed' },
        0,
      );
      await host.deps.webhooks.recordAttempt(
        keyOf(middle, id),
        { attempt: attempt(200), status: 'succeeded' },
        0,
      );
      await host.deps.webhooks.recordAttempt(
        keyOf(newest, id),
        { attempt: attempt(404), status: 'failed' },
        0,
      );
      const all = async (base: string, status?: DeliveryStatus) => {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const query = new URLSearchParams({
            limit: '2',
            ...(status && { status }),
            ...(cursor && { cursor }),
          });
          const result = await page(`${base}?${query}`);
          expect(result.data.length).toBeLessThanOrEqual(2);
          seen.push(...result.data.map((delivery) => delivery.id));
          cursor = result.nextCursor;
        } while (cursor);
        return seen;
      };

      // Act and assess
      for (const base of [`${longPath(id)}/deliveries`, `/v1/webhooks/${id}/deliveries`]) {
        expect(await all(base)).toEqual([newest, fourth, middle, second, oldest]);
        expect(await all(base, 'failed')).toEqual([newest, oldest]);
        expect(await all(base, 'succeeded')).toEqual([middle]);
        expect(await all(base, 'pending')).toEqual([fourth, second]);
      }
    });

    it('refuses an unknown status, and a cursor of another filter, with 400', async () => {
      // Prepare
      const id = await newWebhook();
      for (let i = 1; i <= 3; i++) await seedDelivery(i * 1000, id);
      const cursor = (await page(`${longPath(id)}/deliveries?limit=1&status=pending`)).nextCursor ?? '';

      // Act
      const badStatus = await call(`${longPath(id)}/deliveries?status=lost`);
      const otherFilter = await call(
        `${longPath(id)}/deliveries?status=failed&cursor=${encodeURIComponent(cursor)}`,
      );

      // Assess
      const status = await expectEnvelope(badStatus, 400, 'INVALID_REQUEST');
      expect(Object.keys(status.details as object)).toEqual(['status']);
      const refused = await expectEnvelope(otherFilter, 400, 'INVALID_REQUEST');
      expect(Object.keys(refused.details as object)).toEqual(['cursor']);
    });

    it('answers 404 for a webhook that is not there, and for a deleted one', async () => {
      // Prepare
      const id = await newWebhook();
      await seedDelivery(1000, id);
      expect((await call(longPath(id), 'DELETE')).status).toBe(204);

      // Act
      const deleted = await call(`${longPath(id)}/deliveries`);
      const unknown = await call(`/v1/webhooks/${newId('webhook')}/deliveries`);

      // Assess
      await expectEnvelope(deleted, 404, 'not_found');
      await expectEnvelope(unknown, 404, 'not_found');
    });
  });

  describe('POST …/deliveries/{delivery_id}/retry', () => {
    it('answers 202 with the delivery pending now, and writes the dispatch request for the outbox', async () => {
      // Prepare
      const delivery = await seedDelivery(3_600_000);
      const failure = {
        at: iso(NOW - 3_000_000),
        responseStatus: 503,
        durationMs: 17,
        error: 'The receiver answered 503.',
      };
      await host.deps.webhooks.recordAttempt(
        keyOf(delivery.deliveryId),
        { attempt: failure, status: 'failed' },
        0,
      );

      // Act
      const response = await call(`${longPath()}/deliveries/${delivery.deliveryId}/retry`, 'POST');

      // Assess
      expect(response.status).toBe(202);
      const body = (await response.json()) as DeliveryRecord;
      expect(body).toMatchObject({
        id: delivery.deliveryId,
        eventId: delivery.eventId,
        status: 'pending',
        attempts: 1,
        nextAttemptAt: iso(NOW),
        attemptHistory: [failure],
      });
      const stored = await host.deps.webhooks.getDelivery(keyOf(delivery.deliveryId));
      expect(stored).toMatchObject({
        status: 'pending',
        nextAttemptAt: iso(NOW),
        dispatchRequestedAt: iso(NOW),
        event: delivery.event,
      });
      const pending = await page(`${longPath()}/deliveries?status=pending&limit=100`);
      expect(pending.data.map((record) => record.id)).toContain(delivery.deliveryId);
    });

    it('brings a pending delivery’s next attempt forward to now; a second retry asks again', async () => {
      // Prepare
      const delivery = await seedDelivery(600_000);
      await host.deps.webhooks.recordAttempt(
        keyOf(delivery.deliveryId),
        {
          attempt: { at: iso(NOW - 500_000), responseStatus: 500, durationMs: 5 },
          status: 'pending',
          nextAttemptAt: iso(NOW + 3_600_000),
        },
        0,
      );
      const retry = () => call(`${longPath()}/deliveries/${delivery.deliveryId}/retry`, 'POST');

      // Act
      const first = await retry();
      const afterFirst = await host.deps.webhooks.getDelivery(keyOf(delivery.deliveryId));
      clock.advance(1_000);
      const second = await retry();
      const afterSecond = await host.deps.webhooks.getDelivery(keyOf(delivery.deliveryId));

      // Assess
      expect(first.status).toBe(202);
      expect(second.status).toBe(202);
      expect(afterFirst).toMatchObject({ nextAttemptAt: iso(NOW), dispatchRequestedAt: iso(NOW) });
      expect(afterSecond).toMatchObject({
        nextAttemptAt: iso(NOW + 1_000),
        dispatchRequestedAt: iso(NOW + 1_000),
      });
      clock.set(NOW);
    });

    it('answers 404 for an unknown delivery, or one of another webhook, and writes nothing', async () => {
      // Prepare
      const otherId = await newWebhook();
      const others = await seedDelivery(1000, otherId);

      // Act
      const unknown = await call(`${longPath()}/deliveries/${newId('webhookDelivery')}/retry`, 'POST');
      const crossed = await call(`${longPath()}/deliveries/${others.deliveryId}/retry`, 'POST');

      // Assess
      await expectEnvelope(unknown, 404, 'not_found');
      await expectEnvelope(crossed, 404, 'not_found');
      expect(await host.deps.webhooks.getDelivery(keyOf(others.deliveryId, otherId))).toEqual(others);
    });
  });

  describe('POST …/webhooks/{webhook_id}/test', () => {
    it('answers 202 with a pending webhook.test delivery for this webhook only, in its history, not in the feed', async () => {
      // Prepare
      const id = await newWebhook();
      const bystander = await newWebhook();

      // Act
      const response = await call(`${longPath(id)}/test`, 'POST');

      // Assess
      expect(response.status).toBe(202);
      const body = (await response.json()) as DeliveryRecord;
      expect(body).toEqual({
        id: expect.stringMatching(/^whd_/),
        webhookId: id,
        eventId: expect.stringMatching(/^evt_/),
        eventType: 'webhook.test',
        status: 'pending',
        attempts: 0,
        lastAttemptAt: null,
        nextAttemptAt: iso(NOW),
        responseStatus: null,
        responseTimeMs: null,
        error: null,
        createdAt: iso(NOW),
        attemptHistory: [],
      });
      const stored = await host.deps.webhooks.getDelivery(keyOf(body.id, id));
      expect(stored).toMatchObject({
        dispatchRequestedAt: iso(NOW),
        event: {
          id: body.eventId,
          type: 'webhook.test',
          createdAt: iso(NOW),
          workspaceId: tenant.workspaceId,
          data: { webhookId: id, message: expect.any(String) },
        },
      });
      expect((await page(`${longPath(id)}/deliveries`)).data.map((record) => record.id)).toEqual([body.id]);
      expect((await page(`${longPath(bystander)}/deliveries`)).data).toEqual([]);
      const feed = await host.deps.webhooks.readEvents(tenant.tenantId, tenant.workspaceId, { limit: 100 });
      expect(feed.items.map((event) => event.id)).not.toContain(body.eventId);
    });

    it('answers 404 for a webhook of another tenant', async () => {
      // Prepare
      const stranger = await host.admin.bootstrap({ name: 'Stranger' });

      // Act
      const response = await host.call(`/v1/workspaces/${stranger.workspaceId}/webhooks/${webhookId}/test`, {
        method: 'POST',
        apiKey: stranger.apiKey,
      });

      // Assess
      await expectEnvelope(response, 404, 'not_found');
    });
  });
});
