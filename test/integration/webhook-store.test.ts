import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import { localTableNames } from '../../shared/adapters/dynamodb/tables.js';
import { makeDynamoWebhookStore } from '../../shared/adapters/dynamodb/webhook-store.js';
import { InvalidRequestError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { fixedClock } from '../../shared/ports/clock.js';
import {
  type DeliveredEvent,
  type FeedEvent,
  WebhookLimitReached,
  type WebhookRecord,
  type WebhookStore,
  webhookDeliveryId,
} from '../../shared/ports/webhook-store.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const LIMIT = 25;

const iso = (ms: number) => new Date(ms).toISOString();

/** A fresh tenant and workspace per test, so tests never see each other's items. */
function newScope() {
  return { tenantId: newId('tenant'), workspaceId: newId('workspace') };
}

function webhookRecord(
  scope: { tenantId: string; workspaceId: string },
  overrides: Partial<WebhookRecord> = {},
): WebhookRecord {
  return {
    webhookId: newId('webhook', NOW),
    ...scope,
    url: 'https://receiver.example.com/hook',
    events: ['post.published', 'post.failed'],
    createdAt: iso(NOW),
    consecutiveFailures: 0,
    secretCiphertext: 'v1.ciphertext-of-the-secret',
    ...overrides,
  };
}

function deliveredEvent(workspaceId: string, atMs: number, type = 'post.published'): DeliveredEvent {
  return { id: newId('event', atMs), type, createdAt: iso(atMs), workspaceId, data: { postId: 'pst_1' } };
}

function feedEvent(scope: { tenantId: string; workspaceId: string }, atMs: number, type = 'post.published') {
  return { ...deliveredEvent(scope.workspaceId, atMs, type), tenantId: scope.tenantId } satisfies FeedEvent;
}

async function expectCursorRefused(reading: Promise<unknown>) {
  const error = await reading.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(InvalidRequestError);
  const refused = error as InvalidRequestError;
  expect(refused.status).toBe(400);
  expect(refused.code).toBe('INVALID_REQUEST');
  expect(refused.details).toEqual({ cursor: [expect.any(String)] });
}

describe('webhook store on DynamoDB Local', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  const db = makeDocumentClient(client);
  const clock = fixedClock(NOW);
  let tableName: string;
  let store: WebhookStore;

  const rawItem = async (key: Record<string, string>) =>
    (await db.send(new GetCommand({ TableName: tableName, Key: key }))).Item;

  beforeAll(async () => {
    const names = localTableNames(`w${Math.random().toString(36).slice(2, 8)}-`);
    await ensureTables(client, names);
    tableName = names.main;
    store = makeDynamoWebhookStore(db, tableName, clock);
  });
  afterAll(() => client.destroy());

  describe('webhooks', () => {
    it('stores a webhook: reads for responses never carry the secret, the delivery read does', async () => {
      // Prepare
      const scope = newScope();
      const webhook = webhookRecord(scope, { description: 'orders' });

      // Act
      await store.createWebhook(webhook, LIMIT);

      // Assess
      const { secretCiphertext, ...view } = webhook;
      const shown = await store.getWebhook(scope.tenantId, scope.workspaceId, webhook.webhookId);
      expect(shown).toEqual(view);
      expect(shown).not.toHaveProperty('secretCiphertext');
      await expect(
        store.getWebhookForDelivery(scope.tenantId, scope.workspaceId, webhook.webhookId),
      ).resolves.toEqual(webhook);
      expect(secretCiphertext).toBe('v1.ciphertext-of-the-secret');
    });

    it("lists a workspace's webhooks oldest first, page by page, without secrets", async () => {
      // Prepare
      const scope = newScope();
      const made: WebhookRecord[] = [];
      for (let i = 0; i < 5; i++) {
        const webhook = webhookRecord(scope, { webhookId: newId('webhook', NOW + i) });
        await store.createWebhook(webhook, LIMIT);
        made.push(webhook);
      }

      // Act
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.listWebhooks(scope.tenantId, scope.workspaceId, {
          limit: 2,
          ...(cursor && { cursor }),
        });
        for (const item of page.items) expect(item).not.toHaveProperty('secretCiphertext');
        seen.push(...page.items.map((item) => item.webhookId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);

      // Assess
      expect(seen).toEqual(made.map((webhook) => webhook.webhookId));
      expect(pages).toBe(3);
    });

    it(`${LIMIT + 1} concurrent creates in one workspace: exactly ${LIMIT} are stored, one is refused`, async () => {
      // Prepare
      const scope = newScope();
      const webhooks = Array.from({ length: LIMIT + 1 }, () => webhookRecord(scope));

      // Act
      const results = await Promise.allSettled(
        webhooks.map((webhook) => store.createWebhook(webhook, LIMIT)),
      );

      // Assess
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(LIMIT);
      const refused = results.filter((result) => result.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(WebhookLimitReached);
      const page = await store.listWebhooks(scope.tenantId, scope.workspaceId, { limit: 100 });
      expect(page.items).toHaveLength(LIMIT);
      expect((await rawItem(keys.webhookCounter(scope.tenantId, scope.workspaceId)))?.webhookCount).toBe(
        LIMIT,
      );
    });

    it('a delete frees a place at once; a refused create writes nothing', async () => {
      // Prepare
      const scope = newScope();
      const [first, second, third] = [webhookRecord(scope), webhookRecord(scope), webhookRecord(scope)];
      await store.createWebhook(first, 2);
      await store.createWebhook(second, 2);
      await expect(store.createWebhook(third, 2)).rejects.toBeInstanceOf(WebhookLimitReached);
      expect(await store.getWebhook(scope.tenantId, scope.workspaceId, third.webhookId)).toBeUndefined();

      // Act
      const deleted = await store.deleteWebhook(scope.tenantId, scope.workspaceId, first.webhookId);

      // Assess
      expect(deleted).toBe(true);
      expect(await store.getWebhook(scope.tenantId, scope.workspaceId, first.webhookId)).toBeUndefined();
      expect(
        await store.getWebhookForDelivery(scope.tenantId, scope.workspaceId, first.webhookId),
      ).toBeUndefined();
      await store.createWebhook(third, 2);
      await expect(store.createWebhook(webhookRecord(scope), 2)).rejects.toBeInstanceOf(WebhookLimitReached);
    });

    it('deleting a webhook that is not there answers false and gives no place back', async () => {
      // Prepare
      const scope = newScope();
      const webhook = webhookRecord(scope);
      await store.createWebhook(webhook, 1);
      await store.deleteWebhook(scope.tenantId, scope.workspaceId, webhook.webhookId);
      await store.createWebhook(webhookRecord(scope), 1);

      // Act
      const again = await store.deleteWebhook(scope.tenantId, scope.workspaceId, webhook.webhookId);
      const unknown = await store.deleteWebhook(scope.tenantId, scope.workspaceId, newId('webhook'));

      // Assess
      expect([again, unknown]).toEqual([false, false]);
      expect((await rawItem(keys.webhookCounter(scope.tenantId, scope.workspaceId)))?.webhookCount).toBe(1);
      await expect(store.createWebhook(webhookRecord(scope), 1)).rejects.toBeInstanceOf(WebhookLimitReached);
    });

    it("the fan-out's read finds exactly the workspace's webhooks, whatever they subscribe to (the fan-out keeps each event's own)", async () => {
      // Prepare
      const scope = newScope();
      const published = webhookRecord(scope, { events: ['post.published'] });
      const both = webhookRecord(scope, { events: ['post.failed', 'post.published'] });
      const failedOnly = webhookRecord(scope, { events: ['post.failed'] });
      const elsewhere = webhookRecord(newScope(), { events: ['post.published'] });
      const sameWorkspaceOtherTenant = webhookRecord(
        { tenantId: newId('tenant'), workspaceId: scope.workspaceId },
        { events: ['post.published'] },
      );
      for (const webhook of [published, both, failedOnly, elsewhere, sameWorkspaceOtherTenant])
        await store.createWebhook(webhook, LIMIT);

      // Act
      const found = await store.listFanOutWebhooks(scope.tenantId, scope.workspaceId);

      // Assess
      expect(found.map((webhook) => webhook.webhookId).sort()).toEqual(
        [published.webhookId, both.webhookId, failedOnly.webhookId].sort(),
      );
      for (const webhook of found) expect(webhook).not.toHaveProperty('secretCiphertext');
    });

    it('records outcomes: failures add up, a success resets them, an older outcome is dropped', async () => {
      // Prepare
      const scope = newScope();
      const webhook = webhookRecord(scope);
      await store.createWebhook(webhook, LIMIT);
      const record = (minutes: number, status: 'succeeded' | 'failed') =>
        store.recordDeliveryOutcome(scope.tenantId, scope.workspaceId, webhook.webhookId, {
          at: iso(NOW + minutes * 60_000),
          status,
        });
      const shown = () => store.getWebhook(scope.tenantId, scope.workspaceId, webhook.webhookId);

      // Act and assess
      expect(await record(1, 'failed')).toBe(true);
      expect(await record(2, 'failed')).toBe(true);
      expect(await shown()).toMatchObject({
        consecutiveFailures: 2,
        lastDeliveryStatus: 'failed',
        lastDeliveryAt: iso(NOW + 2 * 60_000),
      });
      expect(await record(3, 'succeeded')).toBe(true);
      expect(await shown()).toMatchObject({ consecutiveFailures: 0, lastDeliveryStatus: 'succeeded' });
      expect(await record(2.5, 'failed')).toBe(false);
      expect(await shown()).toMatchObject({
        consecutiveFailures: 0,
        lastDeliveryStatus: 'succeeded',
        lastDeliveryAt: iso(NOW + 3 * 60_000),
      });
    });

    it('an outcome for a deleted webhook is dropped and does not bring the webhook back', async () => {
      // Prepare
      const scope = newScope();
      const webhook = webhookRecord(scope);
      await store.createWebhook(webhook, LIMIT);
      await store.deleteWebhook(scope.tenantId, scope.workspaceId, webhook.webhookId);

      // Act
      const recorded = await store.recordDeliveryOutcome(
        scope.tenantId,
        scope.workspaceId,
        webhook.webhookId,
        {
          at: iso(NOW),
          status: 'failed',
        },
      );

      // Assess
      expect(recorded).toBe(false);
      expect(
        await rawItem(keys.webhook(scope.tenantId, scope.workspaceId, webhook.webhookId)),
      ).toBeUndefined();
    });

    it('refuses a cursor that is not one of ours, or that belongs to another list', async () => {
      // Prepare
      const scope = newScope();
      for (let i = 0; i < 3; i++) await store.createWebhook(webhookRecord(scope), LIMIT);
      const page = await store.listWebhooks(scope.tenantId, scope.workspaceId, { limit: 1 });
      const webhook = page.items[0];
      if (!page.nextCursor || !webhook) throw new Error('expected a first page with a nextCursor');

      // Act and assess
      await expectCursorRefused(
        store.listWebhooks(scope.tenantId, scope.workspaceId, { limit: 1, cursor: 'x' }),
      );
      await expectCursorRefused(
        store.listDeliveries(scope.tenantId, scope.workspaceId, webhook.webhookId, {
          limit: 1,
          cursor: page.nextCursor,
        }),
      );
      await expectCursorRefused(
        store.readEvents(scope.tenantId, scope.workspaceId, { limit: 1, after: page.nextCursor }),
      );
    });
  });

  describe('tenant isolation', () => {
    it("another tenant never finds, lists, deletes or reads a tenant's webhooks, deliveries or events", async () => {
      // Prepare
      const owner = newScope();
      const intruder = { tenantId: newId('tenant'), workspaceId: owner.workspaceId };
      const webhook = webhookRecord(owner);
      await store.createWebhook(webhook, LIMIT);
      const event = deliveredEvent(owner.workspaceId, NOW);
      const { delivery } = await store.createDelivery({
        ...owner,
        webhookId: webhook.webhookId,
        event,
        createdAt: iso(NOW),
      });
      await store.appendEvents([{ ...event, tenantId: owner.tenantId }]);
      const deliveryKey = { ...intruder, webhookId: webhook.webhookId, deliveryId: delivery.deliveryId };

      // Act
      const seen = {
        webhook: await store.getWebhook(intruder.tenantId, intruder.workspaceId, webhook.webhookId),
        forDelivery: await store.getWebhookForDelivery(
          intruder.tenantId,
          intruder.workspaceId,
          webhook.webhookId,
        ),
        list: await store.listWebhooks(intruder.tenantId, intruder.workspaceId, { limit: 100 }),
        subscribed: await store.listFanOutWebhooks(intruder.tenantId, intruder.workspaceId),
        deleted: await store.deleteWebhook(intruder.tenantId, intruder.workspaceId, webhook.webhookId),
        outcome: await store.recordDeliveryOutcome(
          intruder.tenantId,
          intruder.workspaceId,
          webhook.webhookId,
          {
            at: iso(NOW),
            status: 'failed',
          },
        ),
        delivery: await store.getDelivery(deliveryKey),
        attempt: await store.recordAttempt(
          deliveryKey,
          { attempt: { at: iso(NOW), durationMs: 5 }, status: 'succeeded' },
          0,
        ),
        deliveries: await store.listDeliveries(intruder.tenantId, intruder.workspaceId, webhook.webhookId, {
          limit: 100,
        }),
        events: await store.readEvents(intruder.tenantId, intruder.workspaceId, { limit: 100 }),
      };

      // Assess
      expect(seen).toEqual({
        webhook: undefined,
        forDelivery: undefined,
        list: { items: [] },
        subscribed: [],
        deleted: false,
        outcome: false,
        delivery: undefined,
        attempt: undefined,
        deliveries: { items: [] },
        events: { items: [] },
      });
      await expect(
        store.getWebhook(owner.tenantId, owner.workspaceId, webhook.webhookId),
      ).resolves.toMatchObject({
        consecutiveFailures: 0,
      });
      await expect(
        store.getDelivery({ ...owner, webhookId: webhook.webhookId, deliveryId: delivery.deliveryId }),
      ).resolves.toMatchObject({ attempts: [], status: 'pending' });
      expect(
        await rawItem(
          keys.delivery(intruder.tenantId, intruder.workspaceId, webhook.webhookId, delivery.deliveryId),
        ),
      ).toBeUndefined();
    });
  });

  describe('deliveries', () => {
    const setUp = async () => {
      const scope = newScope();
      const webhook = webhookRecord(scope);
      await store.createWebhook(webhook, LIMIT);
      const keyOf = (deliveryId: string) => ({ ...scope, webhookId: webhook.webhookId, deliveryId });
      return { scope, webhook, keyOf };
    };

    it('creates one pending delivery per (webhook, event), whose id carries the event time', async () => {
      // Prepare
      const { scope, webhook } = await setUp();
      const event = deliveredEvent(scope.workspaceId, NOW - 5_000);

      // Act
      const { delivery, created } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event,
        createdAt: iso(NOW),
        nextAttemptAt: iso(NOW),
      });

      // Assess
      expect(created).toBe(true);
      expect(delivery).toEqual({
        deliveryId: webhookDeliveryId(webhook.webhookId, event.id),
        ...scope,
        webhookId: webhook.webhookId,
        eventId: event.id,
        eventType: 'post.published',
        event,
        status: 'pending',
        attempts: [],
        nextAttemptAt: iso(NOW),
        createdAt: iso(NOW),
      });
      expect(delivery.deliveryId).toMatch(/^whd_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(delivery.deliveryId.slice(4, 14)).toBe(event.id.slice(4, 14));
      expect(webhookDeliveryId(newId('webhook'), event.id)).not.toBe(delivery.deliveryId);
      await expect(
        store.getDelivery({ ...scope, webhookId: webhook.webhookId, deliveryId: delivery.deliveryId }),
      ).resolves.toEqual(delivery);
    });

    it('a redelivered event, even several at once, finds the first delivery and makes no second one', async () => {
      // Prepare
      const { scope, webhook } = await setUp();
      const event = deliveredEvent(scope.workspaceId, NOW);
      const input = (minutes: number) => ({
        ...scope,
        webhookId: webhook.webhookId,
        event,
        createdAt: iso(NOW + minutes * 60_000),
      });

      // Act
      const results = await Promise.all(
        [0, 1, 2, 3, 4].map((minutes) => store.createDelivery(input(minutes))),
      );

      // Assess
      expect(results.filter((result) => result.created)).toHaveLength(1);
      const ids = new Set(results.map((result) => result.delivery.deliveryId));
      expect(ids.size).toBe(1);
      const createdAt = new Set(results.map((result) => result.delivery.createdAt));
      expect(createdAt.size).toBe(1);
      const page = await store.listDeliveries(scope.tenantId, scope.workspaceId, webhook.webhookId, {
        limit: 10,
      });
      expect(page.items).toHaveLength(1);
    });

    it('records each attempt: 500, 500, then 200 leaves three attempts and a succeeded delivery', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const { delivery } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event: deliveredEvent(scope.workspaceId, NOW),
        createdAt: iso(NOW),
      });
      const key = keyOf(delivery.deliveryId);

      // Act
      const first = await store.recordAttempt(
        key,
        {
          attempt: { at: iso(NOW), responseStatus: 500, durationMs: 40, error: 'HTTP 500' },
          status: 'pending',
          nextAttemptAt: iso(NOW + 30_000),
        },
        0,
      );
      await store.recordAttempt(
        key,
        {
          attempt: { at: iso(NOW + 30_000), responseStatus: 500, durationMs: 41, error: 'HTTP 500' },
          status: 'pending',
          nextAttemptAt: iso(NOW + 150_000),
        },
        1,
      );
      const last = await store.recordAttempt(
        key,
        { attempt: { at: iso(NOW + 150_000), responseStatus: 200, durationMs: 12 }, status: 'succeeded' },
        2,
      );

      // Assess
      expect(first).toMatchObject({ status: 'pending', nextAttemptAt: iso(NOW + 30_000), error: 'HTTP 500' });
      const expected = {
        status: 'succeeded',
        attempts: [
          { at: iso(NOW), responseStatus: 500, durationMs: 40, error: 'HTTP 500' },
          { at: iso(NOW + 30_000), responseStatus: 500, durationMs: 41, error: 'HTTP 500' },
          { at: iso(NOW + 150_000), responseStatus: 200, durationMs: 12 },
        ],
        lastAttemptAt: iso(NOW + 150_000),
        responseStatus: 200,
        responseTimeMs: 12,
      };
      expect(last).toMatchObject(expected);
      expect(last).not.toHaveProperty('nextAttemptAt');
      expect(last).not.toHaveProperty('error');
      expect(last).not.toHaveProperty('expiresAt');
      expect(await store.getDelivery(key)).toEqual(last);
    });

    it('an attempt without a response removes the previous response status', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const { delivery } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event: deliveredEvent(scope.workspaceId, NOW),
        createdAt: iso(NOW),
      });
      const key = keyOf(delivery.deliveryId);
      await store.recordAttempt(
        key,
        {
          attempt: { at: iso(NOW), responseStatus: 503, durationMs: 9 },
          status: 'pending',
          nextAttemptAt: iso(NOW + 1),
        },
        0,
      );

      // Act
      const timedOut = await store.recordAttempt(
        key,
        {
          attempt: { at: iso(NOW + 30_000), durationMs: 5000, error: 'timed out after 5 s' },
          status: 'failed',
        },
        1,
      );

      // Assess
      expect(timedOut).toMatchObject({
        status: 'failed',
        error: 'timed out after 5 s',
        responseTimeMs: 5000,
      });
      expect(timedOut).not.toHaveProperty('responseStatus');
      expect(timedOut).not.toHaveProperty('nextAttemptAt');
    });

    it('records an attempt only once: a stale attempt count or an unknown delivery writes nothing', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const { delivery } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event: deliveredEvent(scope.workspaceId, NOW),
        createdAt: iso(NOW),
      });
      const key = keyOf(delivery.deliveryId);
      const change = {
        attempt: { at: iso(NOW), responseStatus: 200, durationMs: 3 },
        status: 'succeeded' as const,
      };

      // Act
      const both = await Promise.all([
        store.recordAttempt(key, change, 0),
        store.recordAttempt(key, change, 0),
      ]);
      const unknownKey = keyOf(webhookDeliveryId(webhook.webhookId, newId('event', NOW)));
      const unknown = await store.recordAttempt(unknownKey, change, 0);

      // Assess
      expect(both.filter((result) => result !== undefined)).toHaveLength(1);
      expect((await store.getDelivery(key))?.attempts).toHaveLength(1);
      expect(unknown).toBeUndefined();
      expect(
        await rawItem(
          keys.delivery(scope.tenantId, scope.workspaceId, webhook.webhookId, unknownKey.deliveryId),
        ),
      ).toBeUndefined();
    });

    it('keeps an attempt error short', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const { delivery } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event: deliveredEvent(scope.workspaceId, NOW),
        createdAt: iso(NOW),
      });

      // Act
      const recorded = await store.recordAttempt(
        keyOf(delivery.deliveryId),
        { attempt: { at: iso(NOW), durationMs: 1, error: 'x'.repeat(5000) }, status: 'failed' },
        0,
      );

      // Assess
      expect(recorded?.error).toHaveLength(500);
      expect(recorded?.attempts[0]?.error).toHaveLength(500);
    });

    it('expires a delivery 30 days after it last changed (TTL), and never shows the TTL attribute', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const { delivery } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event: deliveredEvent(scope.workspaceId, NOW),
        createdAt: iso(NOW),
      });
      const key = keys.delivery(scope.tenantId, scope.workspaceId, webhook.webhookId, delivery.deliveryId);
      const createdExpiry = (await rawItem(key))?.expiresAt;

      // Act
      await store.recordAttempt(
        keyOf(delivery.deliveryId),
        { attempt: { at: iso(NOW + DAY_MS), durationMs: 1, responseStatus: 200 }, status: 'succeeded' },
        0,
      );

      // Assess
      expect(createdExpiry).toBe((NOW + 30 * DAY_MS) / 1000);
      expect((await rawItem(key))?.expiresAt).toBe((NOW + 31 * DAY_MS) / 1000);
      expect(await store.getDelivery(keyOf(delivery.deliveryId))).not.toHaveProperty('expiresAt');
    });

    it('lists deliveries newest first, page by page, and by status from the index as statuses change', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { delivery } = await store.createDelivery({
          ...scope,
          webhookId: webhook.webhookId,
          event: deliveredEvent(scope.workspaceId, NOW + i * 1000),
          createdAt: iso(NOW + i * 1000),
        });
        ids.push(delivery.deliveryId);
      }
      const [oldest, , middle, , newest] = ids as [string, string, string, string, string];
      await store.recordAttempt(
        keyOf(oldest),
        { attempt: { at: iso(NOW), durationMs: 1 }, status: 'failed' },
        0,
      );
      await store.recordAttempt(
        keyOf(middle),
        { attempt: { at: iso(NOW), durationMs: 1, responseStatus: 204 }, status: 'succeeded' },
        0,
      );
      await store.recordAttempt(
        keyOf(newest),
        { attempt: { at: iso(NOW), durationMs: 1 }, status: 'failed' },
        0,
      );
      const list = (query: { limit: number; status?: 'pending' | 'succeeded' | 'failed'; cursor?: string }) =>
        store.listDeliveries(scope.tenantId, scope.workspaceId, webhook.webhookId, query);
      const all = async (status?: 'pending' | 'succeeded' | 'failed') => {
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await list({ limit: 2, ...(status && { status }), ...(cursor && { cursor }) });
          seen.push(...page.items.map((item) => item.deliveryId));
          cursor = page.nextCursor;
        } while (cursor);
        return seen;
      };

      // Act
      const everything = await all();
      const failed = await all('failed');
      const succeeded = await all('succeeded');
      const pending = await all('pending');

      // Assess
      expect(everything).toEqual([...ids].reverse());
      expect(failed).toEqual([newest, oldest]);
      expect(succeeded).toEqual([middle]);
      expect(pending).toEqual([ids[3], ids[1]]);
    });

    it('a delivery made by a request carries its dispatch request from the start', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const event = deliveredEvent(scope.workspaceId, NOW, 'webhook.test');

      // Act
      const { delivery } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event,
        createdAt: iso(NOW),
        nextAttemptAt: iso(NOW),
        dispatchRequestedAt: iso(NOW),
      });

      // Assess
      expect(delivery).toMatchObject({
        status: 'pending',
        nextAttemptAt: iso(NOW),
        dispatchRequestedAt: iso(NOW),
      });
      expect(await store.getDelivery(keyOf(delivery.deliveryId))).toEqual(delivery);
    });

    it('a requested dispatch makes a failed delivery pending now, keeps its attempts and moves its index entry', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const { delivery } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event: deliveredEvent(scope.workspaceId, NOW),
        createdAt: iso(NOW),
      });
      const key = keyOf(delivery.deliveryId);
      const failedAttempt = { at: iso(NOW), responseStatus: 500, durationMs: 9, error: 'HTTP 500' };
      await store.recordAttempt(key, { attempt: failedAttempt, status: 'failed' }, 0);
      const at = iso(NOW + 2 * DAY_MS);
      const listed = async (status: 'pending' | 'failed') =>
        (
          await store.listDeliveries(scope.tenantId, scope.workspaceId, webhook.webhookId, {
            limit: 10,
            status,
          })
        ).items.map((item) => item.deliveryId);

      // Act
      const requested = await store.requestDispatch(key, at);

      // Assess
      expect(requested).toMatchObject({
        status: 'pending',
        nextAttemptAt: at,
        dispatchRequestedAt: at,
        attempts: [failedAttempt],
        responseStatus: 500,
        error: 'HTTP 500',
      });
      expect(requested).not.toHaveProperty('expiresAt');
      expect(await store.getDelivery(key)).toEqual(requested);
      expect(await listed('pending')).toEqual([delivery.deliveryId]);
      expect(await listed('failed')).toEqual([]);
      const raw = await rawItem(
        keys.delivery(scope.tenantId, scope.workspaceId, webhook.webhookId, delivery.deliveryId),
      );
      expect(raw?.expiresAt).toBe((NOW + 32 * DAY_MS) / 1000);
    });

    it('a requested dispatch brings a scheduled attempt forward; a second request changes the marker again', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const { delivery } = await store.createDelivery({
        ...scope,
        webhookId: webhook.webhookId,
        event: deliveredEvent(scope.workspaceId, NOW),
        createdAt: iso(NOW),
      });
      const key = keyOf(delivery.deliveryId);
      await store.recordAttempt(
        key,
        { attempt: { at: iso(NOW), durationMs: 5 }, status: 'pending', nextAttemptAt: iso(NOW + 3_600_000) },
        0,
      );

      // Act
      const first = await store.requestDispatch(key, iso(NOW + 60_000));
      const second = await store.requestDispatch(key, iso(NOW + 61_000));

      // Assess
      expect(first).toMatchObject({
        nextAttemptAt: iso(NOW + 60_000),
        dispatchRequestedAt: iso(NOW + 60_000),
      });
      expect(second).toMatchObject({
        status: 'pending',
        nextAttemptAt: iso(NOW + 61_000),
        dispatchRequestedAt: iso(NOW + 61_000),
      });
      expect(second?.attempts).toHaveLength(1);
    });

    it('a requested dispatch of a delivery that is not there writes nothing', async () => {
      // Prepare
      const { scope, webhook, keyOf } = await setUp();
      const missing = webhookDeliveryId(webhook.webhookId, newId('event', NOW));

      // Act
      const requested = await store.requestDispatch(keyOf(missing), iso(NOW));

      // Assess
      expect(requested).toBeUndefined();
      expect(
        await rawItem(keys.delivery(scope.tenantId, scope.workspaceId, webhook.webhookId, missing)),
      ).toBeUndefined();
    });

    it('a cursor of one status is refused for another status or for the unfiltered list', async () => {
      // Prepare
      const { scope, webhook } = await setUp();
      for (let i = 0; i < 3; i++) {
        await store.createDelivery({
          ...scope,
          webhookId: webhook.webhookId,
          event: deliveredEvent(scope.workspaceId, NOW + i),
          createdAt: iso(NOW),
        });
      }
      const list = (query: { limit: number; status?: 'pending' | 'failed'; cursor?: string }) =>
        store.listDeliveries(scope.tenantId, scope.workspaceId, webhook.webhookId, query);
      const pendingCursor = (await list({ limit: 1, status: 'pending' })).nextCursor;
      const plainCursor = (await list({ limit: 1 })).nextCursor;
      if (!pendingCursor || !plainCursor) throw new Error('expected cursors');

      // Act and assess
      await expect(list({ limit: 1, status: 'pending', cursor: pendingCursor })).resolves.toMatchObject({
        items: [expect.anything()],
      });
      await expectCursorRefused(list({ limit: 1, status: 'failed', cursor: pendingCursor }));
      await expectCursorRefused(list({ limit: 1, cursor: pendingCursor }));
      await expectCursorRefused(list({ limit: 1, status: 'pending', cursor: plainCursor }));
      const forged = Buffer.from(JSON.stringify({ q: 'x', p: { sk: 'POST#pst_1' } })).toString('base64url');
      await expectCursorRefused(list({ limit: 1, cursor: forged }));
    });
  });

  describe('event feed', () => {
    it('appends a batch of events, keeps one copy of a redelivered one, and reads them in id order', async () => {
      // Prepare
      const scope = newScope();
      const events = [3, 1, 4, 2, 5].map((second) => feedEvent(scope, NOW - 60_000 + second * 1000));

      // Act: the batch, then two of its events delivered again (same id, same content).
      await store.appendEvents(events);
      await store.appendEvents([events[0], events[3]] as FeedEvent[]);

      // Assess
      const page = await store.readEvents(scope.tenantId, scope.workspaceId, { limit: 100 });
      expect(page.items.map((event) => event.id)).toEqual(events.map((event) => event.id).sort());
      expect(page.items.find((event) => event.id === events[0]?.id)).toEqual(events[0]);
      expect(page.nextCursor).toBeUndefined();
      expect(page.items[0]).not.toHaveProperty('expiresAt');
    });

    it('appends more events than one BatchWriteItem carries (25) in one call', async () => {
      const scope = newScope();
      const events = Array.from({ length: 60 }, (_, i) => feedEvent(scope, NOW - 120_000 + i * 1000));
      await store.appendEvents(events);
      const page = await store.readEvents(scope.tenantId, scope.workspaceId, { limit: 100 });
      expect(page.items.map((event) => event.id)).toEqual(events.map((event) => event.id));
    });

    it('refuses a batch with an event that has no evt_ id, and writes none of it', async () => {
      const scope = newScope();
      const good = feedEvent(scope, NOW - 5_000);
      await expect(store.appendEvents([good, { ...good, id: 'pst_notanevent' }])).rejects.toThrow(RangeError);
      const page = await store.readEvents(scope.tenantId, scope.workspaceId, { limit: 100 });
      expect(page.items).toEqual([]);
    });

    it('reads after an event id (exclusive), by types, page by page with a cursor', async () => {
      // Prepare
      const scope = newScope();
      const types = ['post.queued', 'post.published', 'post.failed', 'post.published', 'approval.requested'];
      const events = types.map((type, i) => feedEvent(scope, NOW - 60_000 + i * 1000, type));
      for (const event of events) await store.appendEvents([event]);
      const [first, second, third, fourth, fifth] = events as [
        FeedEvent,
        FeedEvent,
        FeedEvent,
        FeedEvent,
        FeedEvent,
      ];

      // Act
      const afterSecond = await store.readEvents(scope.tenantId, scope.workspaceId, {
        limit: 100,
        after: second.id,
      });
      const byTypes: string[] = [];
      let after: string | undefined;
      do {
        const page = await store.readEvents(scope.tenantId, scope.workspaceId, {
          limit: 2,
          types: ['post.published', 'approval.requested'],
          ...(after && { after }),
        });
        byTypes.push(...page.items.map((event) => event.id));
        after = page.nextCursor;
      } while (after);

      // Assess
      expect(afterSecond.items.map((event) => event.id)).toEqual([third.id, fourth.id, fifth.id]);
      expect(byTypes).toEqual([second.id, fourth.id, fifth.id]);
      expect(first.type).toBe('post.queued');
    });

    it('a cursor read with other types is refused; a malformed position is refused', async () => {
      // Prepare
      const scope = newScope();
      for (let i = 0; i < 3; i++) await store.appendEvents([feedEvent(scope, NOW - 10_000 + i)]);
      const page = await store.readEvents(scope.tenantId, scope.workspaceId, {
        limit: 1,
        types: ['post.published'],
      });
      if (!page.nextCursor) throw new Error('expected a nextCursor');

      // Act and assess
      await expect(
        store.readEvents(scope.tenantId, scope.workspaceId, {
          limit: 1,
          types: ['post.published'],
          after: page.nextCursor,
        }),
      ).resolves.toMatchObject({ items: [expect.anything()] });
      await expectCursorRefused(
        store.readEvents(scope.tenantId, scope.workspaceId, {
          limit: 1,
          types: ['post.failed'],
          after: page.nextCursor,
        }),
      );
      await expectCursorRefused(
        store.readEvents(scope.tenantId, scope.workspaceId, { limit: 1, after: page.nextCursor }),
      );
      await expectCursorRefused(
        store.readEvents(scope.tenantId, scope.workspaceId, { limit: 1, after: 'evt_short' }),
      );
    });

    it('shows no event older than 30 days, even before TTL deletes it, and sets the TTL', async () => {
      // Prepare
      const scope = newScope();
      const expired = feedEvent(scope, NOW - 31 * DAY_MS);
      const kept = feedEvent(scope, NOW - 29 * DAY_MS);
      await store.appendEvents([expired]);
      await store.appendEvents([kept]);

      // Act
      const fromStart = await store.readEvents(scope.tenantId, scope.workspaceId, { limit: 10 });
      const afterExpired = await store.readEvents(scope.tenantId, scope.workspaceId, {
        limit: 10,
        after: expired.id,
      });

      // Assess
      expect(fromStart.items.map((event) => event.id)).toEqual([kept.id]);
      expect(afterExpired.items.map((event) => event.id)).toEqual([kept.id]);
      const item = await rawItem(keys.feedEvent(scope.tenantId, scope.workspaceId, kept.id));
      expect(item?.expiresAt).toBe((NOW - 29 * DAY_MS + 30 * DAY_MS) / 1000);
    });

    it('leaves out events created at or after createdBefore, so a reader at the head can wait for late ones', async () => {
      // Prepare
      const scope = newScope();
      const early = feedEvent(scope, NOW - 10_000);
      const late = feedEvent(scope, NOW - 1_000);
      await store.appendEvents([early]);
      await store.appendEvents([late]);

      // Act
      const settled = await store.readEvents(scope.tenantId, scope.workspaceId, {
        limit: 10,
        createdBefore: iso(NOW - 2_000),
      });
      const pastTheBound = await store.readEvents(scope.tenantId, scope.workspaceId, {
        limit: 10,
        after: late.id,
        createdBefore: iso(NOW - 2_000),
      });
      const beforeRetention = await store.readEvents(scope.tenantId, scope.workspaceId, {
        limit: 10,
        createdBefore: iso(NOW - 40 * DAY_MS),
      });

      // Assess
      expect(settled.items.map((event) => event.id)).toEqual([early.id]);
      expect(pastTheBound).toEqual({ items: [] });
      expect(beforeRetention).toEqual({ items: [] });
    });

    it("keeps workspaces apart: one workspace's feed never shows another's events", async () => {
      // Prepare
      const scope = newScope();
      const sibling = { tenantId: scope.tenantId, workspaceId: newId('workspace') };
      await store.appendEvents([feedEvent(scope, NOW - 1000)]);
      await store.appendEvents([feedEvent(sibling, NOW - 1000)]);

      // Act
      const page = await store.readEvents(scope.tenantId, scope.workspaceId, { limit: 10 });

      // Assess
      expect(page.items).toHaveLength(1);
      expect(page.items[0]?.workspaceId).toBe(scope.workspaceId);
    });
  });
});
