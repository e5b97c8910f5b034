import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../ports/clock.js';
import type { WebhookStore } from '../../ports/webhook-store.js';
import { makeDynamoEventFeed } from './event-feed.js';
import { makeDynamoDeliveryLog } from './webhook-deliveries.js';
import { makeDynamoWebhookRegistry } from './webhook-registry.js';

/**
 * Webhooks, their deliveries and the workspace's event feed, all in the main table under the
 * tenant's workspace partition (docs/data-model.md "Webhooks"). The clock decides which feed
 * events are past their retention.
 */
export function makeDynamoWebhookStore(
  db: DynamoDBDocumentClient,
  tableName: string,
  clock: Clock,
): WebhookStore {
  return {
    ...makeDynamoWebhookRegistry(db, tableName),
    ...makeDynamoDeliveryLog(db, tableName),
    ...makeDynamoEventFeed(db, tableName, clock),
  };
}
