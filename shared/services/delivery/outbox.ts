import { deliveryEffects } from '../../domain/delivery-effects.js';
import { postEvents, type ServiceEvent, stableEventId } from '../../domain/events.js';
import type { Media } from '../../domain/media.js';
import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { Clock } from '../../ports/clock.js';
import type { DeliveryMessage, MessageQueue, PostScheduler } from '../../ports/queues.js';
import type { WebhookDelivery } from '../../ports/webhook-store.js';
import type { MediaImportMessage } from '../media/import-media.js';
import type { WebhookDispatchMessage } from '../webhooks/dispatch-message.js';
import { deliveryMessageOf } from './delivery-message.js';
import type { OutboxEntity } from './outbox-entities.js';

export interface OutboxDeps {
  deliveryQueue: MessageQueue<DeliveryMessage>;
  importQueue: MessageQueue<MediaImportMessage>;
  eventsQueue: MessageQueue<ServiceEvent>;
  webhookQueue: MessageQueue<WebhookDispatchMessage>;
  scheduler: PostScheduler;
  clock: Clock;
}

/** What each entity the outbox acts on is. */
interface OutboxEntities {
  post: Post;
  media: Media;
  webhookDelivery: WebhookDelivery;
  account: Account;
}

/**
 * One write of an entity the outbox acts on: what it was (absent for an insert) and what it is
 * now. A removal has nothing to act on, so it is never a change.
 */
export type OutboxChange = {
  [E in OutboxEntity]: { entity: E; before?: OutboxEntities[E]; after: OutboxEntities[E] };
}[OutboxEntity];

function accountEvents(before: Account | undefined, account: Account): ServiceEvent[] {
  if (before?.status !== 'connected' || account.status !== 'disconnected' || !account.disconnectedAt)
    return [];
  return [
    {
      id: stableEventId(
        Date.parse(account.disconnectedAt),
        account.accountId,
        'disconnected',
        account.disconnectedAt,
      ),
      type: 'account.disconnected',
      createdAt: account.disconnectedAt,
      tenantId: account.tenantId,
      workspaceId: account.workspaceId,
      data: {
        accountId: account.accountId,
        platform: account.platform,
        reason: account.disconnectReason ?? 'revoked',
      },
    },
  ];
}

/**
 * The dispatch message an API request asked for by writing a webhook delivery (a retry through
 * POST …/retry, a webhook.test event): a pending delivery inserted with `dispatchRequestedAt`, or
 * one whose `dispatchRequestedAt` changed. Nothing else a delivery item does has an effect here
 * (the fan-out and the dispatcher queue their own messages).
 */
function requestedDispatch(
  before: WebhookDelivery | undefined,
  delivery: WebhookDelivery,
): WebhookDispatchMessage | undefined {
  const requested = delivery.dispatchRequestedAt;
  if (!requested || delivery.status !== 'pending') return undefined;
  if (before?.dispatchRequestedAt === requested) return undefined;
  return {
    tenantId: delivery.tenantId,
    workspaceId: delivery.workspaceId,
    webhookId: delivery.webhookId,
    deliveryId: delivery.deliveryId,
    attempts: delivery.attempts.length,
  };
}

/**
 * The transactional outbox (docs/architecture.md#data-flow): the main table's stream is the only way side
 * effects leave. For each change of a post: its delivery message, its one-time schedule (made,
 * moved or removed) and its events; for an account that lost its authorisation: account.disconnected;
 * for a new import of media by URL: a message to the import worker; for a webhook delivery an API
 * request asked to send (a retry, a test event): its dispatch message.
 * Every effect is safe to repeat (the worker claims conditionally, schedules are upserts, events
 * keep their id, a dispatch message for an attempt already made is dropped as stale), so a record
 * seen twice does no harm. The stream's records come as changes from shared/triggers/outbox-stream.ts,
 * which stops a batch at a failing record and reports it, so Lambda retries from it and order is kept.
 */
export function makeOutbox(deps: OutboxDeps) {
  const effectsOf = {
    async media(before: Media | undefined, media: Media) {
      // A new import by URL: the import worker fetches it.
      if (!before && media.source === 'url' && media.status === 'pending') {
        await deps.importQueue.send({
          tenantId: media.tenantId,
          workspaceId: media.workspaceId,
          mediaId: media.mediaId,
        });
      }
    },
    async webhookDelivery(before: WebhookDelivery | undefined, delivery: WebhookDelivery) {
      const dispatch = requestedDispatch(before, delivery);
      if (dispatch) await deps.webhookQueue.send(dispatch);
    },
    async account(before: Account | undefined, account: Account) {
      for (const event of accountEvents(before, account)) await deps.eventsQueue.send(event);
    },
    async post(previous: Post | undefined, post: Post) {
      const message = deliveryMessageOf(post);
      const effects = deliveryEffects(previous, post, deps.clock.now());
      if (effects.unschedule) await deps.scheduler.remove(post.postId);
      if (effects.schedule) await deps.scheduler.upsert(post.postId, effects.schedule.fireAt, message);
      // The message continues the trace of the request that wrote the post, not the stream's.
      if (effects.enqueue)
        await deps.deliveryQueue.send(message, {
          delaySeconds: effects.enqueue.delaySeconds,
          ...(post.trace && { trace: post.trace }),
        });
      for (const event of postEvents(previous, post)) await deps.eventsQueue.send(event);
    },
  };

  return async function applyChange(change: OutboxChange): Promise<void> {
    switch (change.entity) {
      case 'post':
        return effectsOf.post(change.before, change.after);
      case 'media':
        return effectsOf.media(change.before, change.after);
      case 'webhookDelivery':
        return effectsOf.webhookDelivery(change.before, change.after);
      case 'account':
        return effectsOf.account(change.before, change.after);
    }
  };
}
