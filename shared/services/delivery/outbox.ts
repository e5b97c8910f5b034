import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { fromItem } from '../../adapters/dynamodb/keys.js';
import { deliveryEffects } from '../../domain/delivery-effects.js';
import { postEvents, type ServiceEvent, stableEventId } from '../../domain/events.js';
import type { Media } from '../../domain/media.js';
import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { DeliveryMessage, MessageQueue, PostScheduler } from '../../ports/queues.js';
import type { WebhookDelivery } from '../../ports/webhook-store.js';
import { type InvocationContext, makeInvocationLogger } from '../invocation-logger.js';
import type { MediaImportMessage } from '../media/import-media.js';
import type { WebhookDispatchMessage } from '../webhooks/dispatch-message.js';
import { deliveryMessageOf } from './delivery-message.js';
import { isOutboxEntity, type OutboxEntity } from './outbox-entities.js';

export interface OutboxDeps {
  deliveryQueue: MessageQueue<DeliveryMessage>;
  importQueue: MessageQueue<MediaImportMessage>;
  eventsQueue: MessageQueue<ServiceEvent>;
  webhookQueue: MessageQueue<WebhookDispatchMessage>;
  scheduler: PostScheduler;
  clock: Clock;
  logger: Logger;
}

type Image = Record<string, unknown>;

function image(value: Record<string, unknown> | undefined): Image | undefined {
  // The Lambda event's AttributeValue type and the SDK's describe the same wire format.
  return value ? unmarshall(value as Record<string, AttributeValue>) : undefined;
}

function accountEvents(before: Image | undefined, after: Image): ServiceEvent[] {
  const account = fromItem<Account>(after);
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
function requestedDispatch(before: Image | undefined, after: Image): WebhookDispatchMessage | undefined {
  const delivery = fromItem<WebhookDelivery>(after);
  const requested = delivery.dispatchRequestedAt;
  if (!requested || delivery.status !== 'pending') return undefined;
  if (before && fromItem<WebhookDelivery>(before).dispatchRequestedAt === requested) return undefined;
  return {
    tenantId: delivery.tenantId,
    workspaceId: delivery.workspaceId,
    webhookId: delivery.webhookId,
    deliveryId: delivery.deliveryId,
    attempts: delivery.attempts.length,
  };
}

/**
 * The transactional outbox (DESIGN.md "Data flow"): the main table's stream is the only way side
 * effects leave. For each change of a post: its delivery message, its one-time schedule (made,
 * moved or removed) and its events; for an account that lost its authorisation: account.disconnected;
 * for a new import of media by URL: a message to the import worker; for a webhook delivery an API
 * request asked to send (a retry, a test event): its dispatch message.
 * Every effect is safe to repeat (the worker claims conditionally, schedules are upserts, events
 * keep their id, a dispatch message for an attempt already made is dropped as stale), so a record
 * seen twice does no harm. A failing record stops the batch and is
 * reported, so Lambda retries from it and order is kept.
 */
export function makeOutbox(deps: OutboxDeps) {
  const invocationLogger = makeInvocationLogger(deps.logger);
  const effectsOf: Record<OutboxEntity, (before: Image | undefined, after: Image) => Promise<void>> = {
    async media(before, after) {
      // A new import by URL: the import worker fetches it.
      const media = fromItem<Media>(after);
      if (!before && media.source === 'url' && media.status === 'pending') {
        await deps.importQueue.send({
          tenantId: media.tenantId,
          workspaceId: media.workspaceId,
          mediaId: media.mediaId,
        });
      }
    },
    async webhookDelivery(before, after) {
      const dispatch = requestedDispatch(before, after);
      if (dispatch) await deps.webhookQueue.send(dispatch);
    },
    async account(before, after) {
      for (const event of accountEvents(before, after)) await deps.eventsQueue.send(event);
    },
    async post(before, after) {
      const post = fromItem<Post>(after);
      const previous = before ? fromItem<Post>(before) : undefined;
      const message = deliveryMessageOf(post);
      const effects = deliveryEffects(previous, post, deps.clock.now());
      if (effects.unschedule) await deps.scheduler.remove(post.postId);
      if (effects.schedule) await deps.scheduler.upsert(post.postId, effects.schedule.fireAt, message);
      if (effects.enqueue)
        await deps.deliveryQueue.send(message, { delaySeconds: effects.enqueue.delaySeconds });
      for (const event of postEvents(previous, post)) await deps.eventsQueue.send(event);
    },
  };
  const apply = async (record: DynamoDBRecord) => {
    const after = image(record.dynamodb?.NewImage);
    // A removal (TTL), or an item of no interest that got past a filter: nothing to do.
    if (!after || !isOutboxEntity(after.entity)) return;
    await effectsOf[after.entity](image(record.dynamodb?.OldImage), after);
  };

  return async function handleStream(
    event: DynamoDBStreamEvent,
    context?: InvocationContext,
  ): Promise<DynamoDBBatchResponse> {
    const log = invocationLogger(context);
    for (const record of event.Records) {
      try {
        await apply(record);
      } catch (error) {
        log.error('outbox record failed; it will be retried', {
          sequenceNumber: record.dynamodb?.SequenceNumber,
          eventName: record.eventName,
          error,
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  };
}
