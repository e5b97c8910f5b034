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
    Pick<WebhookRegistry, 'listSubscribedWebhooks'> &
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

/**
 * One event from the events queue (docs/webhooks.md "Delivery"):
 * 1. the envelope, checked against the event's documented schema (WebhookPayloadError: a bug, the
 *    message goes towards the dead-letter queue rather than a body the docs do not describe);
 * 2. appended to the workspace's feed (GET …/events), once;
 * 3. one delivery per webhook of the event's OWN tenant and workspace subscribed to its type, its
 *    id derived from (webhook, event), so a redelivered event finds its first deliveries;
 * 4. a dispatch message for each delivery not attempted yet. A delivery already attempted has its
 *    own retries queued, and a second message would only be dropped as stale.
 * Every step is safe to repeat: an event handled twice makes no second delivery.
 */
export function makeFanOut(deps: FanOutDeps) {
  /** The store answers per workspace; the check is kept so a store bug can never cross tenants. */
  const belongsTo = (event: ServiceEvent) => (webhook: Webhook) =>
    webhook.tenantId === event.tenantId && webhook.workspaceId === event.workspaceId;

  return async function fanOut(event: ServiceEvent, logger: Logger = deps.logger): Promise<FanOutResult> {
    const log = logger.with({
      tenantId: event.tenantId,
      workspaceId: event.workspaceId,
      eventId: event.id,
      eventType: event.type,
    });
    const envelope = toDeliveredEnvelope(event);
    const appended = await deps.webhooks.appendEvent({ ...envelope, tenantId: event.tenantId });
    const subscribed = (
      await deps.webhooks.listSubscribedWebhooks(event.tenantId, event.workspaceId, event.type)
    ).filter(belongsTo(event));
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

/** The SQS side: the events of a batch are independent, so they are handled at once. */
export function makeFanOutConsumer(deps: FanOutDeps) {
  return makeSqsBatchHandler<ServiceEvent>('webhook fan-out', makeFanOut(deps), {
    concurrent: true,
    logger: deps.logger,
  });
}
