import type { ServiceEvent } from '../../domain/events.js';
import { toDeliveredEnvelope } from '../../domain/webhooks/payloads.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { MessageQueue } from '../../ports/queues.js';
import type {
  DeliveryLog,
  EventFeed,
  FeedEvent,
  Webhook,
  WebhookRegistry,
} from '../../ports/webhook-store.js';
import type { WebhookDispatchMessage } from './dispatch-message.js';

export interface FanOutDeps {
  webhooks: Pick<EventFeed, 'appendEvents'> &
    Pick<WebhookRegistry, 'listFanOutWebhooks'> &
    Pick<DeliveryLog, 'createDelivery'>;
  webhookQueue: MessageQueue<WebhookDispatchMessage>;
  clock: Clock;
  logger: Logger;
}

export interface FanOutResult {
  /** Dispatch messages sent: one per subscribed webhook whose delivery has not been attempted yet. */
  dispatched: number;
}

/** A workspace's webhooks, read once and shared by the events of one batch. */
export type WorkspaceWebhooks = (tenantId: string, workspaceId: string) => Promise<Webhook[]>;

/** Adds one event to the feed; the events of one batch share the write. */
export type AppendToFeed = (event: FeedEvent) => Promise<void>;

/** What the events of one batch share: one read of each workspace's webhooks, one feed write. */
export interface SharedByBatch {
  webhooksOf: WorkspaceWebhooks;
  appendToFeed: AppendToFeed;
}

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

/** An event waiting for its batch's feed write, and how to tell it the outcome. */
interface WaitingEvent {
  event: FeedEvent;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The events appended in one turn of the event loop go to the feed in one `appendEvents` (one
 * round trip per 25 instead of one per event): a batch's records are handled at once, and each
 * asks before its first await, so the write waits for the end of that turn and carries them all.
 * A failed write fails every event it carried; each is retried with its message.
 */
export function appendTogether(appendEvents: EventFeed['appendEvents']): AppendToFeed {
  let waiting: WaitingEvent[] | undefined;
  return (event) =>
    new Promise<void>((resolve, reject) => {
      if (!waiting) {
        const batch: WaitingEvent[] = [];
        waiting = batch;
        queueMicrotask(() => {
          waiting = undefined;
          appendEvents(batch.map((entry) => entry.event)).then(
            () => {
              for (const entry of batch) entry.resolve();
            },
            (error: unknown) => {
              for (const entry of batch) entry.reject(error);
            },
          );
        });
      }
      waiting.push({ event, resolve, reject });
    });
}

/**
 * One event from the events queue (docs/webhooks.md "Delivery"):
 * 1. the envelope, checked against the event's documented schema (WebhookPayloadError: a bug, the
 *    message goes towards the dead-letter queue rather than a body the docs do not describe);
 * 2. appended to the workspace's feed (GET …/events): its id is stable, so a redelivered event
 *    leaves one copy;
 * 3. one delivery per webhook of the event's OWN tenant and workspace subscribed to its type, its
 *    id derived from (webhook, event), so a redelivered event finds its first deliveries;
 * 4. a dispatch message for each delivery not attempted yet. A delivery already attempted has its
 *    own retries queued, and a second message would only be dropped as stale.
 * Every step is safe to repeat: an event handled twice makes no second delivery. The workspace's
 * webhooks and the feed's write come from `shared` (the consumer shares one read and one write among
 * a batch's events; alone, an event has its own).
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
    shared: SharedByBatch = shareWithinBatch(deps),
  ): Promise<FanOutResult> {
    const log = logger.with({
      tenantId: event.tenantId,
      workspaceId: event.workspaceId,
      eventId: event.id,
      eventType: event.type,
    });
    const envelope = toDeliveredEnvelope(event);
    // The feed's write and the webhooks' read are independent: both at once.
    const [, webhooks] = await Promise.all([
      shared.appendToFeed({ ...envelope, tenantId: event.tenantId }),
      shared.webhooksOf(event.tenantId, event.workspaceId),
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
    log.debug('event fanned out', { webhooks: subscribed.length, dispatched });
    return { dispatched };
  };
}

/** A fresh read of each workspace's webhooks and a fresh feed write, for the events of one batch. */
export function shareWithinBatch(deps: Pick<FanOutDeps, 'webhooks'>): SharedByBatch {
  return {
    webhooksOf: readOncePerBatch((tenantId, workspaceId) =>
      deps.webhooks.listFanOutWebhooks(tenantId, workspaceId),
    ),
    appendToFeed: appendTogether((events) => deps.webhooks.appendEvents(events)),
  };
}
