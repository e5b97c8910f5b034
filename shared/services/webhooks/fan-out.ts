import type { SQSEvent } from 'aws-lambda';
import type { ServiceEvent } from '../../domain/events.js';
import { toDeliveredEnvelope } from '../../domain/webhooks/payloads.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { MessageQueue } from '../../ports/queues.js';
import type { DeliveryLog, EventFeed, Webhook, WebhookRegistry } from '../../ports/webhook-store.js';
import { makeSqsBatchHandler } from '../sqs-batch.js';
import type { WebhookDispatchMessage } from './dispatch-message.js';

export interface FanOutDeps {
  webhooks: Pick<EventFeed, 'appendEvent'> &
    Pick<WebhookRegistry, 'listFanOutWebhooks'> &
    Pick<DeliveryLog, 'createDelivery'>;
  webhookQueue: MessageQueue<WebhookDispatchMessage>;
  clock: Clock;
  logger: Logger;
}

export interface FanOutResult {
  /** False when the feed already had the event (a redelivered event). */
  appended: boolean;
  /** Dispatch messages sent: one per subscribed webhook whose delivery has not been attempted yet. */
  dispatched: number;
}

/** A workspace's webhooks, read once and shared by the events of one batch. */
export type WorkspaceWebhooks = (tenantId: string, workspaceId: string) => Promise<Webhook[]>;

/**
 * Each workspace read at most once: the events of one batch (a post's queued and published, a
 * burst's posts) share the read. It starts when the batch does, after every one of its events was
 * made, so a webhook created before an event still receives it.
 */
export function readOncePerBatch(read: WorkspaceWebhooks): WorkspaceWebhooks {
  const reads = new Map<string, Promise<Webhook[]>>();
  return (tenantId, workspaceId) => {
    const key = JSON.stringify([tenantId, workspaceId]);
    let webhooks = reads.get(key);
    if (!webhooks) {
      webhooks = read(tenantId, workspaceId);
      // A failed read fails the events that share it; a later batch reads again.
      reads.set(key, webhooks);
    }
    return webhooks;
  };
}

/**
 * One event from the events queue (docs/webhooks.md "Delivery"):
 * 1. the envelope, checked against the event's documented schema (WebhookPayloadError: a bug, the
 *    message goes towards the dead-letter queue rather than a body the docs do not describe);
 * 2. appended to the workspace's feed (GET …/events), once;
 * 3. one delivery per webhook of the event's OWN tenant and workspace subscribed to its type, its
 *    id derived from (webhook, event), so a redelivered event finds its first deliveries;
 * 4. a dispatch message for each delivery not attempted yet. A delivery already attempted has its
 *    own retries queued, and a second message would only be dropped as stale.
 * Every step is safe to repeat: an event handled twice makes no second delivery. The workspace's
 * webhooks come from `webhooksOf` (the consumer shares one read among a batch's events; alone, an
 * event reads them itself).
 */
export function makeFanOut(deps: FanOutDeps) {
  /** The store answers per workspace; the check is kept so a store bug can never cross tenants. */
  const subscribedTo = (event: ServiceEvent) => (webhook: Webhook) =>
    webhook.tenantId === event.tenantId &&
    webhook.workspaceId === event.workspaceId &&
    webhook.events.includes(event.type);

  return async function fanOut(
    event: ServiceEvent,
    logger: Logger = deps.logger,
    webhooksOf: WorkspaceWebhooks = (tenantId, workspaceId) =>
      deps.webhooks.listFanOutWebhooks(tenantId, workspaceId),
  ): Promise<FanOutResult> {
    const log = logger.with({
      tenantId: event.tenantId,
      workspaceId: event.workspaceId,
      eventId: event.id,
      eventType: event.type,
    });
    const envelope = toDeliveredEnvelope(event);
    // The feed's write and the webhooks' read are independent: both at once.
    const [appended, webhooks] = await Promise.all([
      deps.webhooks.appendEvent({ ...envelope, tenantId: event.tenantId }),
      webhooksOf(event.tenantId, event.workspaceId),
    ]);
    const subscribed = webhooks.filter(subscribedTo(event));
    const createdAt = new Date(deps.clock.now()).toISOString();
    const sent = await Promise.all(
      subscribed.map(async (webhook) => {
        const { delivery } = await deps.webhooks.createDelivery({
          tenantId: event.tenantId,
          workspaceId: event.workspaceId,
          webhookId: webhook.webhookId,
          event: envelope,
          createdAt,
        });
        if (delivery.status !== 'pending' || delivery.attempts.length > 0) return false;
        await deps.webhookQueue.send({
          tenantId: delivery.tenantId,
          workspaceId: delivery.workspaceId,
          webhookId: delivery.webhookId,
          deliveryId: delivery.deliveryId,
          attempts: 0,
        });
        return true;
      }),
    );
    const dispatched = sent.filter(Boolean).length;
    log.debug('event fanned out', { appended, webhooks: subscribed.length, dispatched });
    return { appended, dispatched };
  };
}

/**
 * The SQS side: the events of a batch are independent, so they are handled at once, and the events
 * of one workspace share one read of its webhooks (a post's two events cost one read, not two, when
 * they arrive together; a burst's events, one per batch).
 */
export function makeFanOutConsumer(deps: FanOutDeps) {
  const fanOut = makeFanOut(deps);
  const readsOf = new WeakMap<SQSEvent, WorkspaceWebhooks>();
  const webhooksFor = (batch: SQSEvent) => {
    let webhooksOf = readsOf.get(batch);
    if (!webhooksOf) {
      webhooksOf = readOncePerBatch((tenantId, workspaceId) =>
        deps.webhooks.listFanOutWebhooks(tenantId, workspaceId),
      );
      readsOf.set(batch, webhooksOf);
    }
    return webhooksOf;
  };
  return makeSqsBatchHandler<ServiceEvent>(
    'webhook fan-out',
    (event, logger, batch) => fanOut(event, logger, webhooksFor(batch)),
    { concurrent: true, logger: deps.logger },
  );
}
