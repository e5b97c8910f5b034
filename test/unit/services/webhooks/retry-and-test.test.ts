import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../../shared/domain/errors.js';
import { newId } from '../../../../shared/domain/ids.js';
import { WEBHOOK_EVENT_SCHEMAS } from '../../../../shared/domain/webhooks/payloads.js';
import { webhookDeliveryId } from '../../../../shared/ports/webhook-store.js';
import { makeRetryDelivery } from '../../../../shared/services/webhooks/retry-delivery.js';
import { makeTestWebhook } from '../../../../shared/services/webhooks/test-webhook.js';
import { at, NOW, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';
import {
  anEvent,
  aStoredWebhook,
  aWebhookWorld,
  OTHER_WORKSPACE_ID,
  type WebhookWorld,
} from './webhook-world.js';

const scope = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID };

async function aDelivery(world: WebhookWorld, webhookId: string) {
  const event = anEvent(NOW - 60_000);
  const { delivery } = await world.webhooks.createDelivery({
    ...scope,
    webhookId,
    event,
    createdAt: event.createdAt,
  });
  return { delivery, key: { ...scope, webhookId, deliveryId: delivery.deliveryId } };
}

describe('retry a delivery', () => {
  it('makes a failed delivery pending now with a new dispatch request, keeping its attempts and event', async () => {
    // Prepare
    const world = aWebhookWorld();
    const webhook = await aStoredWebhook(world);
    const { delivery, key } = await aDelivery(world, webhook.webhookId);
    const attempt = { at: at(-50_000), responseStatus: 500, durationMs: 12, error: 'HTTP 500' };
    await world.webhooks.recordAttempt(key, { attempt, status: 'failed' }, 0);
    world.clock.advance(5_000);

    // Act
    const retried = await makeRetryDelivery(world)(
      TENANT_ID,
      WORKSPACE_ID,
      webhook.webhookId,
      delivery.deliveryId,
    );

    // Assess
    expect(retried).toMatchObject({
      deliveryId: delivery.deliveryId,
      eventId: delivery.eventId,
      event: delivery.event,
      status: 'pending',
      nextAttemptAt: at(5_000),
      dispatchRequestedAt: at(5_000),
      attempts: [attempt],
    });
    expect(await world.webhooks.getDelivery(key)).toEqual(retried);
  });

  it('brings forward a pending delivery whose next attempt is hours away', async () => {
    // Prepare
    const world = aWebhookWorld();
    const webhook = await aStoredWebhook(world);
    const { delivery, key } = await aDelivery(world, webhook.webhookId);
    await world.webhooks.recordAttempt(
      key,
      {
        attempt: { at: at(0), durationMs: 5000, error: 'Timed out' },
        status: 'pending',
        nextAttemptAt: at(4 * 3_600_000),
      },
      0,
    );

    // Act
    const retried = await makeRetryDelivery(world)(
      TENANT_ID,
      WORKSPACE_ID,
      webhook.webhookId,
      delivery.deliveryId,
    );

    // Assess
    expect(retried).toMatchObject({ status: 'pending', nextAttemptAt: at(0), dispatchRequestedAt: at(0) });
    expect(retried.attempts).toHaveLength(1);
  });

  it('redelivers a delivery that succeeded', async () => {
    // Prepare
    const world = aWebhookWorld();
    const webhook = await aStoredWebhook(world);
    const { delivery, key } = await aDelivery(world, webhook.webhookId);
    await world.webhooks.recordAttempt(
      key,
      { attempt: { at: at(0), durationMs: 8, responseStatus: 204 }, status: 'succeeded' },
      0,
    );

    // Act
    const retried = await makeRetryDelivery(world)(
      TENANT_ID,
      WORKSPACE_ID,
      webhook.webhookId,
      delivery.deliveryId,
    );

    // Assess
    expect(retried).toMatchObject({ status: 'pending', dispatchRequestedAt: at(0) });
  });

  it('answers 404, writing nothing, for an unknown delivery, one of another webhook, or a deleted webhook', async () => {
    // Prepare
    const world = aWebhookWorld();
    const webhook = await aStoredWebhook(world);
    const other = await aStoredWebhook(world);
    const { delivery: othersDelivery } = await aDelivery(world, other.webhookId);
    const gone = await aStoredWebhook(world);
    const { delivery: goneDelivery } = await aDelivery(world, gone.webhookId);
    await world.webhooks.deleteWebhook(TENANT_ID, WORKSPACE_ID, gone.webhookId);
    const retry = makeRetryDelivery(world);
    const before = world.webhooks.allDeliveries();

    // Act
    const outcomes = await Promise.all(
      [
        retry(
          TENANT_ID,
          WORKSPACE_ID,
          webhook.webhookId,
          webhookDeliveryId(webhook.webhookId, newId('event', NOW)),
        ),
        retry(TENANT_ID, WORKSPACE_ID, webhook.webhookId, othersDelivery.deliveryId),
        retry(TENANT_ID, WORKSPACE_ID, gone.webhookId, goneDelivery.deliveryId),
        retry(TENANT_ID, OTHER_WORKSPACE_ID, other.webhookId, othersDelivery.deliveryId),
      ].map((outcome) => outcome.catch((e: unknown) => e)),
    );

    // Assess
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(NotFoundError);
    expect(world.webhooks.allDeliveries()).toEqual(before);
  });
});

describe('send a test event', () => {
  it('makes a pending webhook.test delivery for that webhook alone, due now, with a dispatch request', async () => {
    // Prepare
    const world = aWebhookWorld();
    const webhook = await aStoredWebhook(world, { events: ['post.failed'] });
    // Another webhook of the workspace, subscribed to the same events: it gets no test event.
    await aStoredWebhook(world, { events: ['post.failed'] });

    // Act
    const delivery = await makeTestWebhook(world)(TENANT_ID, WORKSPACE_ID, webhook.webhookId);

    // Assess
    expect(delivery).toMatchObject({
      webhookId: webhook.webhookId,
      eventType: 'webhook.test',
      status: 'pending',
      attempts: [],
      createdAt: at(0),
      nextAttemptAt: at(0),
      dispatchRequestedAt: at(0),
    });
    expect(delivery.deliveryId).toBe(webhookDeliveryId(webhook.webhookId, delivery.eventId));
    expect(WEBHOOK_EVENT_SCHEMAS['webhook.test'].parse(delivery.event)).toEqual({
      id: delivery.eventId,
      type: 'webhook.test',
      createdAt: at(0),
      workspaceId: WORKSPACE_ID,
      data: { webhookId: webhook.webhookId, message: expect.any(String) },
    });
    expect(world.webhooks.allDeliveries().map((d) => d.webhookId)).toEqual([webhook.webhookId]);
    const feed = await world.webhooks.readEvents(TENANT_ID, WORKSPACE_ID, { limit: 10 });
    expect(feed.items).toEqual([]);
  });

  it('makes a new event, and a new delivery, each time', async () => {
    // Prepare
    const world = aWebhookWorld();
    const webhook = await aStoredWebhook(world);
    const send = makeTestWebhook(world);

    // Act
    const first = await send(TENANT_ID, WORKSPACE_ID, webhook.webhookId);
    const second = await send(TENANT_ID, WORKSPACE_ID, webhook.webhookId);

    // Assess
    expect(second.eventId).not.toBe(first.eventId);
    expect(second.deliveryId).not.toBe(first.deliveryId);
    expect(world.webhooks.allDeliveries()).toHaveLength(2);
  });

  it("answers 404 for another workspace's webhook and makes no delivery", async () => {
    // Prepare
    const world = aWebhookWorld();
    const webhook = await aStoredWebhook(world);

    // Act
    const error = await makeTestWebhook(world)(TENANT_ID, OTHER_WORKSPACE_ID, webhook.webhookId).catch(
      (e: unknown) => e,
    );

    // Assess
    expect(error).toBeInstanceOf(NotFoundError);
    expect(world.webhooks.allDeliveries()).toEqual([]);
  });
});
