import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { type ServiceEvent, stableEventId } from '../../../shared/domain/events.js';
import { webhookDeliveryId } from '../../../shared/ports/webhook-store.js';
import { makeFanOut } from '../../../shared/services/webhooks/fan-out.js';
import { makeFanOutConsumer } from '../../../shared/triggers/webhook-events-queue.js';
import {
  aPublishedEvent,
  aWebhookWorld,
  OTHER_TENANT,
  OTHER_WORKSPACE,
  TENANT,
  WEBHOOK_NOW,
  WORKSPACE,
} from './webhook-world.js';

/** The same post's earlier event: queued, a millisecond before it was published. */
const queuedOf = (published: ServiceEvent): ServiceEvent => {
  const {
    platformPostId: _id,
    platformPostUrl: _url,
    publishedAt: _at,
    ...data
  } = published.data as Record<string, unknown>;
  const atMs = Date.parse(published.createdAt) - 1;
  return {
    ...published,
    id: stableEventId(atMs, String(data.postId), '1', 'post.queued'),
    type: 'post.queued',
    createdAt: new Date(atMs).toISOString(),
    data: { ...data, status: 'queued' },
  };
};

const sqsEvent = (...events: unknown[]): SQSEvent =>
  ({
    Records: events.map((event, index) => ({ messageId: `m${index}`, body: JSON.stringify(event) })),
  }) as SQSEvent;

describe('the webhook fan-out', () => {
  it("delivers an event to its own workspace's subscribed webhooks only, and appends it to that workspace's feed", async () => {
    // Prepare
    const world = aWebhookWorld();
    const subscribed = await world.register({ events: ['post.published', 'post.failed'] });
    const secondSubscribed = await world.register({ events: ['post.published'] });
    const otherType = await world.register({ events: ['post.failed'] });
    const otherWorkspace = await world.register({ workspaceId: OTHER_WORKSPACE, events: ['post.published'] });
    const otherTenant = await world.register({ tenantId: OTHER_TENANT, events: ['post.published'] });
    const event = aPublishedEvent();

    // Act
    const result = await makeFanOut(world)(event);

    // Assess
    expect(result).toEqual({ dispatched: 2 });
    const deliveries = world.webhooks.allDeliveries();
    expect(deliveries.map((d) => d.webhookId).sort()).toEqual(
      [subscribed.webhook.webhookId, secondSubscribed.webhook.webhookId].sort(),
    );
    for (const excluded of [otherType, otherWorkspace, otherTenant]) {
      expect(deliveries.some((d) => d.webhookId === excluded.webhook.webhookId)).toBe(false);
    }
    expect(world.webhookQueue.sent).toEqual(
      deliveries.map((d) => ({
        message: {
          tenantId: TENANT,
          workspaceId: WORKSPACE,
          webhookId: d.webhookId,
          deliveryId: d.deliveryId,
          attempts: 0,
        },
      })),
    );
    const feed = await world.webhooks.readEvents(TENANT, WORKSPACE, { limit: 10 });
    expect(feed.items.map((item) => item.id)).toEqual([event.id]);
    expect((await world.webhooks.readEvents(TENANT, OTHER_WORKSPACE, { limit: 10 })).items).toEqual([]);
    expect((await world.webhooks.readEvents(OTHER_TENANT, WORKSPACE, { limit: 10 })).items).toEqual([]);
  });

  it('stores the delivered envelope, without the routing tenantId, and pending with no attempt', async () => {
    // Prepare
    const world = aWebhookWorld();
    const { webhook } = await world.register();
    const event = aPublishedEvent();

    // Act
    await makeFanOut(world)(event);

    // Assess
    const [delivery] = world.webhooks.allDeliveries();
    const { tenantId: _routing, ...envelope } = event;
    expect(delivery).toMatchObject({
      deliveryId: webhookDeliveryId(webhook.webhookId, event.id),
      eventId: event.id,
      eventType: 'post.published',
      event: envelope,
      status: 'pending',
      attempts: [],
    });
    expect(delivery?.event).not.toHaveProperty('tenantId');
  });

  it('a redelivered event keeps its id and its deliveries: no second delivery, no second feed entry', async () => {
    // Prepare
    const world = aWebhookWorld();
    await world.register();
    const event = aPublishedEvent();
    const fanOut = makeFanOut(world);
    await fanOut(event);
    const first = world.webhooks.allDeliveries();
    // The first delivery was attempted meanwhile: its own retries are queued already.
    const [delivery] = first;
    if (!delivery) throw new Error('no delivery');
    await world.webhooks.recordAttempt(
      delivery,
      { attempt: { at: delivery.createdAt, responseStatus: 500, durationMs: 5 }, status: 'pending' },
      0,
    );

    // Act
    const again = await fanOut(structuredClone(event));

    // Assess
    expect(again).toEqual({ dispatched: 0 });
    expect(world.webhooks.allDeliveries().map((d) => d.deliveryId)).toEqual(first.map((d) => d.deliveryId));
    expect(world.webhookQueue.sent).toHaveLength(1);
    expect((await world.webhooks.readEvents(TENANT, WORKSPACE, { limit: 10 })).items).toHaveLength(1);
  });

  it('a redelivered event whose delivery was never attempted (the first fan-out died before its message) sends it again', async () => {
    // Prepare
    const world = aWebhookWorld();
    await world.register();
    const event = aPublishedEvent();
    const fanOut = makeFanOut(world);
    await fanOut(event);

    // Act
    await fanOut(event);

    // Assess
    expect(world.webhooks.allDeliveries()).toHaveLength(1);
    expect(world.webhookQueue.messages()).toHaveLength(2);
    expect(new Set(world.webhookQueue.messages().map((m) => m.deliveryId)).size).toBe(1);
  });

  it('as an SQS consumer: an event that breaks its documented schema fails alone, the others are delivered', async () => {
    // Prepare
    const world = aWebhookWorld();
    await world.register();
    const good = aPublishedEvent();
    // No status, platform, accountId or publishedAt: a body the docs do not describe.
    const broken = aPublishedEvent({ data: { postId: 'pst_x' } }, WEBHOOK_NOW + 1);

    // Act
    const response = await makeFanOutConsumer(world)(sqsEvent(good, broken));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(world.webhooks.allDeliveries().map((d) => d.eventId)).toEqual([good.id]);
    const failure = world.logger.entries.find((entry) => entry.level === 'error');
    expect(failure?.fields).toMatchObject({ messageId: 'm1' });
  });

  it("as an SQS consumer: the events of one batch read each workspace's webhooks once, and each event reaches only the webhooks subscribed to its type", async () => {
    // Prepare
    const world = aWebhookWorld();
    const both = await world.register({ events: ['post.queued', 'post.published'] });
    const publishedOnly = await world.register({ events: ['post.published'] });
    const queuedOnly = await world.register({ events: ['post.queued'] });
    const elsewhere = await world.register({ workspaceId: OTHER_WORKSPACE, events: ['post.published'] });
    const first = aPublishedEvent();
    const second = aPublishedEvent({}, WEBHOOK_NOW + 10);
    const otherWorkspace = aPublishedEvent({ workspaceId: OTHER_WORKSPACE }, WEBHOOK_NOW + 20);
    const batch = [queuedOf(first), first, queuedOf(second), second, otherWorkspace];

    // Act
    const response = await makeFanOutConsumer(world)(sqsEvent(...batch));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(world.webhooks.fanOutReads).toBe(2);
    // Five events, both workspaces: one write to the feed.
    expect(world.webhooks.feedWrites).toBe(1);
    const received = (webhookId: string) =>
      world.webhooks
        .allDeliveries()
        .filter((delivery) => delivery.webhookId === webhookId)
        .map((delivery) => delivery.eventId)
        .sort();
    expect(received(both.webhook.webhookId)).toEqual(
      batch
        .slice(0, 4)
        .map((event) => event.id)
        .sort(),
    );
    expect(received(publishedOnly.webhook.webhookId)).toEqual([first.id, second.id].sort());
    expect(received(queuedOnly.webhook.webhookId)).toEqual([queuedOf(first).id, queuedOf(second).id].sort());
    expect(received(elsewhere.webhook.webhookId)).toEqual([otherWorkspace.id]);
    const feed = await world.webhooks.readEvents(TENANT, WORKSPACE, { limit: 10 });
    expect(feed.items.map((item) => item.id).sort()).toEqual(
      batch
        .slice(0, 4)
        .map((event) => event.id)
        .sort(),
    );
  });

  it('as an SQS consumer: a failed feed write fails every event it carried, and their redelivery appends them', async () => {
    // Prepare
    const world = aWebhookWorld();
    await world.register({ events: ['post.published'] });
    const append = world.webhooks.appendEvents.bind(world.webhooks);
    let failures = 1;
    world.webhooks.appendEvents = async (events) => {
      if (failures-- > 0) throw new Error('the store is unreachable');
      return append(events);
    };
    const consumer = makeFanOutConsumer(world);
    const events = [aPublishedEvent(), aPublishedEvent({}, WEBHOOK_NOW + 10)];

    // Act
    const failed = await consumer(sqsEvent(...events));
    const retried = await consumer(sqsEvent(...events));

    // Assess
    expect(failed).toEqual({ batchItemFailures: [{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }] });
    expect(retried).toEqual({ batchItemFailures: [] });
    const feed = await world.webhooks.readEvents(TENANT, WORKSPACE, { limit: 10 });
    expect(feed.items.map((item) => item.id)).toEqual(events.map((event) => event.id).sort());
    // One delivery per event, whether the first fan-out made it or the second.
    expect(world.webhooks.allDeliveries()).toHaveLength(2);
  });

  it("as an SQS consumer: an event that breaks its schema stays out of the batch's feed write", async () => {
    const world = aWebhookWorld();
    const good = aPublishedEvent();
    const broken = aPublishedEvent({ data: { postId: 'pst_x' } }, WEBHOOK_NOW + 1);
    await makeFanOutConsumer(world)(sqsEvent(broken, good));
    expect(world.webhooks.feedWrites).toBe(1);
    const feed = await world.webhooks.readEvents(TENANT, WORKSPACE, { limit: 10 });
    expect(feed.items.map((item) => item.id)).toEqual([good.id]);
  });

  it('as an SQS consumer: the next batch reads the webhooks again, so a webhook created between two batches receives the second', async () => {
    // Prepare
    const world = aWebhookWorld();
    const consumer = makeFanOutConsumer(world);
    await consumer(sqsEvent(aPublishedEvent()));
    const created = await world.register({ events: ['post.published'] });
    const next = aPublishedEvent({}, WEBHOOK_NOW + 10);

    // Act
    await consumer(sqsEvent(next));

    // Assess
    expect(world.webhooks.fanOutReads).toBe(2);
    expect(world.webhooks.allDeliveries().map((delivery) => [delivery.webhookId, delivery.eventId])).toEqual([
      [created.webhook.webhookId, next.id],
    ]);
  });

  it("as an SQS consumer: a failed read of a workspace's webhooks fails that workspace's events (SQS delivers them again), not the others", async () => {
    // Prepare
    const world = aWebhookWorld();
    await world.register({ events: ['post.published'] });
    const elsewhere = await world.register({ workspaceId: OTHER_WORKSPACE, events: ['post.published'] });
    const read = world.webhooks.listFanOutWebhooks.bind(world.webhooks);
    world.webhooks.listFanOutWebhooks = async (tenantId, workspaceId) => {
      if (workspaceId === WORKSPACE) throw new Error('the store is unreachable');
      return read(tenantId, workspaceId);
    };
    const otherWorkspace = aPublishedEvent({ workspaceId: OTHER_WORKSPACE }, WEBHOOK_NOW + 20);

    // Act
    const response = await makeFanOutConsumer(world)(
      sqsEvent(aPublishedEvent(), aPublishedEvent({}, WEBHOOK_NOW + 10), otherWorkspace),
    );

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }] });
    expect(world.webhooks.allDeliveries().map((delivery) => [delivery.webhookId, delivery.eventId])).toEqual([
      [elsewhere.webhook.webhookId, otherWorkspace.id],
    ]);
  });
});
