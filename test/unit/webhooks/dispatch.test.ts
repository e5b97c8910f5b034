import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import {
  SQS_MAX_DELAY_SECONDS,
  WEBHOOK_MAX_ATTEMPTS,
} from '../../../shared/domain/webhooks/retry-schedule.js';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../../../shared/domain/webhooks/signature.js';
import type { WebhookDelivery } from '../../../shared/ports/webhook-store.js';
import { makeDispatchWebhook } from '../../../shared/services/webhooks/dispatch.js';
import type { WebhookDispatchMessage } from '../../../shared/services/webhooks/dispatch-message.js';
import { LAST_DELIVERY_REFRESH_MS } from '../../../shared/services/webhooks/dispatch-settle.js';
import { makeFanOut } from '../../../shared/services/webhooks/fan-out.js';
import { makeWebhookDispatcher } from '../../../shared/triggers/webhook-dispatch-queue.js';
import { aPublishedEvent, aWebhookWorld, WEBHOOK_NOW, type WebhookWorld } from './webhook-world.js';

const HOUR_MS = 3_600_000;

/** A world with one webhook and one event fanned out to it: its delivery and dispatch message queued. */
async function aDeliveryQueued(world: WebhookWorld = aWebhookWorld()) {
  const registered = await world.register();
  const event = aPublishedEvent();
  await makeFanOut(world)(event);
  const dispatch = makeDispatchWebhook(world);
  const url = registered.webhook.url;
  const stored = async () => {
    const [delivery] = world.webhooks.allDeliveries();
    return delivery as WebhookDelivery;
  };
  const webhookRecord = async () =>
    world.webhooks.getWebhook(
      registered.webhook.tenantId,
      registered.webhook.workspaceId,
      registered.webhook.webhookId,
    );
  return { world, ...registered, event, dispatch, url, stored, webhookRecord };
}

const counted = (world: WebhookWorld, outcome: string) =>
  world.metrics.points.filter((p) => p.name === 'WebhookDeliveries' && p.dimensions.outcome === outcome)
    .length;

describe('the webhook dispatcher', () => {
  it('POSTs the stored envelope, signed over the exact bytes sent, with the documented headers; a 2xx succeeds', async () => {
    // Prepare
    const { world, dispatch, url, secret, event, stored, webhookRecord } = await aDeliveryQueued();

    // Act
    const results: string[] = [];
    await world.drain(async (message) => results.push(await dispatch(message)));

    // Assess
    expect(results).toEqual(['succeeded']);
    const [request] = world.receiver.requests;
    if (!request) throw new Error('no request');
    const { tenantId: _routing, ...envelope } = event;
    expect(JSON.parse(request.text)).toEqual(envelope);
    expect(request.headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': 'social-publishing-api-webhooks/1.2.3',
      'X-Webhook-Id': event.id,
    });
    expect(
      verifyWebhookSignature(
        secret,
        request.headers[SIGNATURE_HEADER],
        request.body,
        Math.floor(request.at / 1000),
      ),
    ).toMatchObject({ valid: true });
    expect(request.url).toBe(url);
    const delivery = await stored();
    expect(delivery).toMatchObject({ status: 'succeeded', responseStatus: 200, responseTimeMs: 20 });
    expect(delivery.attempts).toEqual([
      { at: new Date(WEBHOOK_NOW).toISOString(), responseStatus: 200, durationMs: 20 },
    ]);
    expect(delivery.nextAttemptAt).toBeUndefined();
    expect(await webhookRecord()).toMatchObject({
      lastDeliveryStatus: 'succeeded',
      lastDeliveryAt: delivery.attempts[0]?.at,
      consecutiveFailures: 0,
    });
    expect(counted(world, 'succeeded')).toBe(1);
    expect(world.metrics.points).toContainEqual({
      name: 'WebhookDeliveryLatency',
      value: 20,
      unit: 'milliseconds',
      dimensions: {},
    });
  });

  it('logs with the webhook, delivery and event ids, and never the secret or anything of the body', async () => {
    // Prepare
    const { world, dispatch, url, secret, event, webhook } = await aDeliveryQueued();
    world.receiver.answer(url, { status: 500 });

    // Act
    await world.deliverNext(dispatch);

    // Assess
    const line = world.logger.entries.find((entry) => entry.message.startsWith('webhook attempt failed'));
    expect(line?.fields).toMatchObject({
      webhookId: webhook.webhookId,
      eventId: event.id,
      deliveryId: world.webhooks.allDeliveries()[0]?.deliveryId,
      responseStatus: 500,
    });
    const everything = JSON.stringify(world.logger.entries);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(String(event.data.platformPostUrl));
  });

  it('a receiver answering 500 twice then 200 gets three attempts, all in the history, about 30 s and 1 min apart', async () => {
    // Prepare
    const { world, dispatch, url, stored } = await aDeliveryQueued();
    world.receiver.answer(url, { status: 500 }, { status: 500 }, { status: 200 });

    // Act
    const results: string[] = [];
    await world.drain(async (message) => results.push(await dispatch(message)));

    // Assess
    expect(results).toEqual(['retrying', 'retrying', 'succeeded']);
    const delivery = await stored();
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts.map((a) => [a.responseStatus, a.error])).toEqual([
      [500, 'The receiver answered HTTP 500.'],
      [500, 'The receiver answered HTTP 500.'],
      [200, undefined],
    ]);
    const times = delivery.attempts.map((a) => Date.parse(a.at) - WEBHOOK_NOW);
    expect(times[1]).toBeGreaterThanOrEqual(30_000);
    expect(times[1]).toBeLessThanOrEqual(31_000);
    expect(times[2]).toBeGreaterThanOrEqual(90_000);
    expect(times[2]).toBeLessThanOrEqual(91_000);
    expect(world.webhookQueue.sent.map((s) => s.message.attempts)).toEqual([0, 1, 2]);
    expect([counted(world, 'retrying'), counted(world, 'succeeded')]).toEqual([2, 1]);
    expect(world.receiver.requests.map((r) => r.headers['X-Webhook-Id'])).toEqual(
      Array(3).fill(delivery.eventId),
    );
  });

  it('records nextAttemptAt on a failed attempt, and queues the retry for that time', async () => {
    // Prepare
    const { world, dispatch, url, stored } = await aDeliveryQueued();
    world.receiver.answer(url, { status: 503 });

    // Act
    await world.deliverNext(dispatch);

    // Assess
    const delivery = await stored();
    expect(delivery.status).toBe('pending');
    const due = Date.parse(delivery.nextAttemptAt ?? '');
    // 30 s after the first attempt, and never sooner than 30 s after it failed (it took 20 ms).
    expect(due).toBe(WEBHOOK_NOW + 20 + 30_000);
    const [, retry] = world.webhookQueue.sent;
    expect(retry?.message.attempts).toBe(1);
    expect(WEBHOOK_NOW + 20 + (retry?.delaySeconds ?? 0) * 1000).toBeGreaterThanOrEqual(due);
  });

  it('a receiver that takes 6 s is a failed attempt: no complete response within 5 s', async () => {
    // Prepare
    const { world, dispatch, url, stored } = await aDeliveryQueued();
    world.receiver.answer(url, { slowMs: 6_000 });

    // Act
    const result = await world.deliverNext(dispatch).then(() => stored());

    // Assess
    expect(result.status).toBe('pending');
    expect(result.attempts).toEqual([
      {
        at: new Date(WEBHOOK_NOW).toISOString(),
        durationMs: 5_000,
        error: 'No complete response within 5 s.',
      },
    ]);
    expect(result.responseStatus).toBeUndefined();
  });

  it.each([301, 302, 307, 308])('a %i is a failed attempt: the redirect is not followed', async (status) => {
    // Prepare
    const { world, dispatch, url, stored } = await aDeliveryQueued();
    world.receiver.answer(url, { status });

    // Act
    await world.deliverNext(dispatch);

    // Assess
    expect(world.receiver.requests).toHaveLength(1);
    const delivery = await stored();
    expect(delivery.attempts[0]).toMatchObject({
      responseStatus: status,
      error: `The receiver answered HTTP ${status}, a redirect, which is not followed.`,
    });
    expect(delivery.status).toBe('pending');
  });

  it('an address refused at delivery time, or no connection, is a failed attempt in our words', async () => {
    // Prepare
    const { world, dispatch, url, stored } = await aDeliveryQueued();
    world.receiver.answer(
      url,
      { refused: "The receiver URL's host resolves to an address that is not public." },
      { unreachable: 'The connection to the receiver failed.' },
    );

    // Act
    await world.deliverNext(dispatch);
    await world.deliverNext(dispatch);

    // Assess
    expect((await stored()).attempts.map((a) => a.error)).toEqual([
      "The receiver URL's host resolves to an address that is not public.",
      'The connection to the receiver failed.',
    ]);
  });

  it('the whole schedule: a receiver that always fails gets 15 attempts over about 24 h, then the delivery is failed', async () => {
    // Prepare
    const { world, dispatch, url, stored, webhookRecord } = await aDeliveryQueued();
    world.receiver.answer(url, ...Array(WEBHOOK_MAX_ATTEMPTS + 5).fill({ status: 500 }));

    // Act
    const results: string[] = [];
    await world.drain(async (message) => results.push(await dispatch(message)));

    // Assess
    const delivery = await stored();
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(delivery.nextAttemptAt).toBeUndefined();
    const span = Date.parse(delivery.attempts.at(-1)?.at ?? '') - Date.parse(delivery.attempts[0]?.at ?? '');
    expect(span).toBeGreaterThan(23.5 * HOUR_MS);
    expect(span).toBeLessThan(25 * HOUR_MS);
    // The waits rode SQS: no delay above 900 s; the long ones took several hops ("held").
    expect(Math.max(...world.webhookQueue.sent.map((s) => s.delaySeconds ?? 0))).toBeLessThanOrEqual(
      SQS_MAX_DELAY_SECONDS,
    );
    expect(results.filter((r) => r === 'held').length).toBeGreaterThan(50);
    expect(results.filter((r) => r !== 'held')).toEqual([
      ...Array(WEBHOOK_MAX_ATTEMPTS - 1).fill('retrying'),
      'failed',
    ]);
    expect(world.receiver.requests).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(await webhookRecord()).toMatchObject({ lastDeliveryStatus: 'failed', consecutiveFailures: 1 });
    expect(counted(world, 'failed')).toBe(1);
    // Nothing was attempted before it was due.
    for (const [index, attempt] of delivery.attempts.entries()) {
      if (index === 0) continue;
      const previous = delivery.attempts[index - 1];
      expect(Date.parse(attempt.at) - Date.parse(previous?.at ?? '')).toBeGreaterThanOrEqual(30_000);
    }
  });

  it('a success after failed deliveries sets consecutiveFailures back to 0', async () => {
    // Prepare
    const world = aWebhookWorld();
    const first = await aDeliveryQueued(world);
    world.receiver.answer(first.url, ...Array(WEBHOOK_MAX_ATTEMPTS).fill({ status: 500 }));
    await world.drain(first.dispatch);
    expect(await first.webhookRecord()).toMatchObject({ consecutiveFailures: 1 });

    // Act
    await makeFanOut(world)(aPublishedEvent({}, world.clock.now()));
    await world.drain(first.dispatch);

    // Assess
    expect(await first.webhookRecord()).toMatchObject({
      consecutiveFailures: 0,
      lastDeliveryStatus: 'succeeded',
    });
  });

  it('while deliveries keep succeeding, lastDeliveryAt is rewritten at most once a minute (no hot webhook item)', async () => {
    // Prepare
    const world = aWebhookWorld();
    const { webhook, dispatch } = await aDeliveryQueued(world);
    await world.drain(dispatch);
    const shown = async () =>
      (await world.webhooks.getWebhook(webhook.tenantId, webhook.workspaceId, webhook.webhookId))
        ?.lastDeliveryAt;
    const first = await shown();
    const deliverAnother = async (afterMs: number) => {
      world.clock.advance(afterMs);
      await makeFanOut(world)(aPublishedEvent({}, world.clock.now()));
      await world.drain(dispatch);
    };

    // Act
    await deliverAnother(30_000);
    const withinAMinute = await shown();
    await deliverAnother(LAST_DELIVERY_REFRESH_MS);
    const later = await shown();

    // Assess
    expect(withinAMinute).toBe(first);
    expect(Date.parse(later ?? '')).toBeGreaterThan(Date.parse(first ?? ''));
    expect(world.webhooks.allDeliveries().every((d) => d.status === 'succeeded')).toBe(true);
  });

  it('deleting the webhook stops its retries: the queued message is dropped, nothing more is sent', async () => {
    // Prepare
    const { world, dispatch, url, webhook, stored } = await aDeliveryQueued();
    world.receiver.answer(url, { status: 500 });
    await world.deliverNext(dispatch);
    await world.webhooks.deleteWebhook(webhook.tenantId, webhook.workspaceId, webhook.webhookId);

    // Act
    const results: string[] = [];
    await world.drain(async (message) => results.push(await dispatch(message)));

    // Assess
    expect(results).toEqual(['dropped']);
    expect(world.receiver.requests).toHaveLength(1);
    expect((await stored()).attempts).toHaveLength(1);
  });

  it('a message that arrives early goes back on the queue with the time that remains, 900 s a hop at most', async () => {
    // Prepare: a failed attempt whose retry is due in 2 h 10 min (as retry 9 would be).
    const { world, dispatch, stored } = await aDeliveryQueued();
    const delivery = await stored();
    const due = WEBHOOK_NOW + 2 * HOUR_MS + 600_500;
    await world.webhooks.recordAttempt(
      delivery,
      {
        attempt: { at: new Date(WEBHOOK_NOW).toISOString(), responseStatus: 500, durationMs: 5 },
        status: 'pending',
        nextAttemptAt: new Date(due).toISOString(),
      },
      0,
    );
    const message: WebhookDispatchMessage = { ...delivery, attempts: 1 };

    // Act
    const first = await dispatch(message);

    // Assess
    expect(first).toBe('held');
    expect(world.webhookQueue.sent.at(-1)).toEqual({ message, delaySeconds: 900 });
    expect(world.receiver.requests).toEqual([]);

    // Act: it keeps hopping until due, then is attempted, never before.
    const results: string[] = [];
    world.webhookQueue.sent.splice(0, world.webhookQueue.sent.length - 1);
    await world.drain(async (m) => results.push(await dispatch(m)));

    // Assess: 7 more hops of 900 s, then the last 601 s (600.5 rounded up), then the attempt.
    expect(results).toEqual([...Array(8).fill('held'), 'succeeded']);
    expect(world.webhookQueue.sent.map((s) => s.delaySeconds)).toEqual([...Array(8).fill(900), 601]);
    expect(world.receiver.requests[0]?.at).toBeGreaterThanOrEqual(due);
  });

  it('a stale message (its attempt was made by another copy) is dropped; two copies make one attempt', async () => {
    // Prepare
    const { world, dispatch, url } = await aDeliveryQueued();
    const [original] = world.webhookQueue.messages();
    if (!original) throw new Error('no message');
    world.receiver.answer(url, { status: 500 });

    // Act
    const first = await dispatch(original);
    const copy = await dispatch(structuredClone(original));

    // Assess
    expect([first, copy]).toEqual(['retrying', 'dropped']);
    expect(world.receiver.requests).toHaveLength(1);
  });

  it('two copies handled at once: both may POST (at least once), one attempt is recorded, one retry chain goes on', async () => {
    // Prepare
    const { world, dispatch, stored } = await aDeliveryQueued();
    const [original] = world.webhookQueue.messages();
    if (!original) throw new Error('no message');

    // Act
    const results = await Promise.all([dispatch(original), dispatch(structuredClone(original))]);

    // Assess
    expect(results.sort()).toEqual(['dropped', 'succeeded']);
    expect((await stored()).attempts).toHaveLength(1);
  });

  it('a redelivery asked through the API (dispatchRequestedAt) of a failed delivery: attempted now, then a fresh schedule', async () => {
    // Prepare
    const { world, dispatch, url, stored } = await aDeliveryQueued();
    world.receiver.answer(url, ...Array(WEBHOOK_MAX_ATTEMPTS + 1).fill({ status: 500 }));
    await world.drain(dispatch);
    const failed = await stored();
    expect(failed.status).toBe('failed');
    const requestedAt = new Date(world.clock.now()).toISOString();
    const requested = await world.webhooks.requestDispatch(failed, requestedAt);

    // Act: the outbox's message for it.
    const result = await dispatch({ ...failed, attempts: requested?.attempts.length ?? -1 });

    // Assess
    expect(result).toBe('retrying');
    const delivery = await stored();
    expect(delivery.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS + 1);
    expect(delivery.attempts.at(-1)?.at).toBe(requestedAt);
    expect(Date.parse(delivery.nextAttemptAt ?? '') - world.clock.now()).toBeGreaterThanOrEqual(29_000);
    expect(Date.parse(delivery.nextAttemptAt ?? '') - Date.parse(requestedAt)).toBeLessThanOrEqual(31_000);
  });

  it('a webhook.test delivery inserted by the API is attempted at once and signed like any other', async () => {
    // Prepare
    const world = aWebhookWorld();
    const { webhook, secret } = await world.register();
    const now = new Date(world.clock.now()).toISOString();
    const { delivery } = await world.webhooks.createDelivery({
      tenantId: webhook.tenantId,
      workspaceId: webhook.workspaceId,
      webhookId: webhook.webhookId,
      event: {
        id: 'evt_01JD0000000000000000000009',
        type: 'webhook.test',
        createdAt: now,
        workspaceId: webhook.workspaceId,
        data: { webhookId: webhook.webhookId, message: 'This is a test event.' },
      },
      createdAt: now,
      nextAttemptAt: now,
      dispatchRequestedAt: now,
    });

    // Act
    const result = await makeDispatchWebhook(world)({ ...delivery, attempts: 0 });

    // Assess
    expect(result).toBe('succeeded');
    const [request] = world.receiver.requests;
    expect(JSON.parse(request?.text ?? '{}')).toMatchObject({ type: 'webhook.test' });
    expect(
      verifyWebhookSignature(
        secret,
        request?.headers[SIGNATURE_HEADER],
        request?.body ?? '',
        Math.floor(world.clock.now() / 1000),
      ),
    ).toMatchObject({ valid: true });
  });

  it("refuses to sign with another webhook's secret: a ciphertext moved onto this webhook does not decrypt", async () => {
    // Prepare
    const world = aWebhookWorld();
    const victim = await world.register();
    const thief = await aDeliveryQueued(world);
    const record = world.webhooks.allWebhookRecords().find((r) => r.webhookId === thief.webhook.webhookId);
    if (!record) throw new Error('no record');
    await world.webhooks.deleteWebhook(record.tenantId, record.workspaceId, record.webhookId);
    await world.webhooks.createWebhook({ ...record, secretCiphertext: victim.webhook.secretCiphertext }, 25);
    const message = world.webhookQueue.messages().find((m) => m.webhookId === record.webhookId);

    // Act / Assess
    await expect(thief.dispatch(message as WebhookDispatchMessage)).rejects.toMatchObject({
      name: 'SecretDecryptionError',
    });
    expect(world.receiver.requests).toEqual([]);
  });

  it('as an SQS consumer: a slow receiver never holds up another receiver of the same batch', async () => {
    // Prepare
    const world = aWebhookWorld();
    const slow = await world.register({ url: 'https://slow.example/hook' });
    const fast = await world.register({ url: 'https://fast.example/hook' });
    world.receiver.answer(slow.webhook.url, { hang: true });
    await makeFanOut(world)(aPublishedEvent());
    const records = world.webhookQueue.messages().map((message, index) => ({
      messageId: `m${index}`,
      body: JSON.stringify(message),
    }));
    const handler = makeWebhookDispatcher(world);

    // Act
    const batch = handler({ Records: records } as SQSEvent);

    // Assess: the fast receiver's delivery is done while the slow one still holds its connection.
    const deliveryOf = (webhookId: string) =>
      world.webhooks.allDeliveries().find((d) => d.webhookId === webhookId);
    await vi.waitFor(() => expect(deliveryOf(fast.webhook.webhookId)?.status).toBe('succeeded'));
    expect(deliveryOf(slow.webhook.webhookId)?.status).toBe('pending');
    world.receiver.release();
    expect(await batch).toEqual({ batchItemFailures: [] });
  });
});
