import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ID_PREFIXES } from '../../domain/ids.js';
import {
  type DeliveryKey,
  type DeliveryListQuery,
  type DeliveryLog,
  newDelivery,
  WEBHOOK_RETENTION_DAYS,
  type WebhookDelivery,
} from '../../ports/webhook-store.js';
import { type CursorScope, decodeCursor } from './cursor.js';
import { fromItem, keys, toItem } from './keys.js';
import { queryLookingAhead } from './look-ahead-query.js';

const DAY_SECONDS = 24 * 60 * 60;

/**
 * An attempt's error is a short description. Capped, so that a delivery retried many times stays
 * far below DynamoDB's 400 KB item limit.
 */
const MAX_ERROR_LENGTH = 500;

/** TTL (epoch seconds): WEBHOOK_RETENTION_DAYS after the delivery last changed. */
function expiresAt(changedAt: string): number {
  return Math.floor(Date.parse(changedAt) / 1000) + WEBHOOK_RETENTION_DAYS * DAY_SECONDS;
}

function toDelivery(item: Record<string, unknown>): WebhookDelivery {
  const { expiresAt: _ttl, ...delivery } = fromItem<WebhookDelivery & { expiresAt?: number }>(item);
  return delivery;
}

/**
 * The Query behind a webhook's delivery history, newest first (delivery ids carry their event's
 * time), and the scope its cursors belong to: the webhook's partition when no status is asked,
 * else the status index (gsi1), whose entry moves with every status change, as posts' do.
 */
function deliveryListQuery(tableName: string, partition: string, query: DeliveryListQuery) {
  const scope: CursorScope = {
    query: { list: 'deliveries', partition, status: query.status },
    keys: {
      sk: { prefix: keys.deliveryPrefix },
      ...(query.status && { gsi1sk: { prefix: `${ID_PREFIXES.webhookDelivery}_` } }),
    },
  };
  if (!query.status) {
    const input: QueryCommandInput = {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partition, ':prefix': keys.deliveryPrefix },
      ScanIndexForward: false,
    };
    return { input, scope, startKey: (position: Record<string, string>) => ({ ...position, pk: partition }) };
  }
  const { gsi1pk } = keys.deliveryByStatus(partition, query.status, '');
  const input: QueryCommandInput = {
    TableName: tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :gsi1pk',
    ExpressionAttributeValues: { ':gsi1pk': gsi1pk },
    ScanIndexForward: false,
  };
  return {
    input,
    scope,
    startKey: (position: Record<string, string>) => ({ ...position, pk: partition, gsi1pk }),
  };
}

/**
 * Deliveries in their webhook's own partition (`DELIVERY#<whd>`), each listed under its status in
 * gsi1, and deleted by TTL WEBHOOK_RETENTION_DAYS after its latest attempt.
 */
export function makeDynamoDeliveryLog(db: DynamoDBDocumentClient, tableName: string): DeliveryLog {
  const getDelivery = async (key: DeliveryKey) => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.delivery(key.tenantId, key.workspaceId, key.webhookId, key.deliveryId),
        ConsistentRead: true,
      }),
    );
    return Item ? toDelivery(Item) : undefined;
  };

  return {
    async createDelivery(input) {
      const delivery = newDelivery(input);
      const { deliveryId } = delivery;
      const key = { ...input, deliveryId };
      const partition = keys.deliveryPartition(input.tenantId, input.workspaceId, input.webhookId);
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...toItem(
                'webhookDelivery',
                {
                  ...keys.delivery(input.tenantId, input.workspaceId, input.webhookId, deliveryId),
                  ...keys.deliveryByStatus(partition, 'pending', deliveryId),
                },
                delivery,
              ),
              expiresAt: expiresAt(input.createdAt),
            },
            // The id is derived from (webhook, event): a redelivered event meets its first delivery.
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return { delivery, created: true };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
      const existing = await getDelivery(key);
      if (!existing) throw new Error('The delivery exists and cannot be read.');
      return { delivery: existing, created: false };
    },

    getDelivery,

    async recordAttempt(key, change, expectedAttempts) {
      const partition = keys.deliveryPartition(key.tenantId, key.workspaceId, key.webhookId);
      const { attempt } = change;
      const error = attempt.error?.slice(0, MAX_ERROR_LENGTH);
      const stored = { ...attempt, ...(error !== undefined && { error }) };
      const set = [
        '#attempts = list_append(#attempts, :attempt)',
        '#status = :status',
        'gsi1pk = :gsi1pk',
        'lastAttemptAt = :at',
        'responseTimeMs = :durationMs',
        'expiresAt = :expiresAt',
      ];
      const remove: string[] = [];
      const values: Record<string, unknown> = {
        ':attempt': [stored],
        ':status': change.status,
        ':gsi1pk': keys.deliveryByStatus(partition, change.status, key.deliveryId).gsi1pk,
        ':at': attempt.at,
        ':durationMs': attempt.durationMs,
        ':expiresAt': expiresAt(attempt.at),
        ':expected': expectedAttempts,
      };
      // The record's latest-attempt fields describe this attempt alone: what it lacks is removed.
      const latest: [string, unknown][] = [
        ['responseStatus', attempt.responseStatus],
        ['#error', error],
        ['nextAttemptAt', change.nextAttemptAt],
      ];
      for (const [name, value] of latest) {
        if (value === undefined) remove.push(name);
        else {
          const placeholder = `:${name.replace('#', '')}`;
          set.push(`${name} = ${placeholder}`);
          values[placeholder] = value;
        }
      }
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.delivery(key.tenantId, key.workspaceId, key.webhookId, key.deliveryId),
            UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
            // Two workers handling one redelivered message record one attempt, not two.
            ConditionExpression: 'attribute_exists(pk) AND size(#attempts) = :expected',
            ExpressionAttributeNames: { '#attempts': 'attempts', '#status': 'status', '#error': 'error' },
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? toDelivery(Attributes) : undefined;
      } catch (failure) {
        if (failure instanceof ConditionalCheckFailedException) return undefined;
        throw failure;
      }
    },

    async requestDispatch(key, at) {
      const partition = keys.deliveryPartition(key.tenantId, key.workspaceId, key.webhookId);
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.delivery(key.tenantId, key.workspaceId, key.webhookId, key.deliveryId),
            UpdateExpression:
              'SET #status = :pending, gsi1pk = :gsi1pk, nextAttemptAt = :at, dispatchRequestedAt = :at, expiresAt = :expiresAt',
            // Never recreates a delivery that is gone (expired, or never made).
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':pending': 'pending',
              ':gsi1pk': keys.deliveryByStatus(partition, 'pending', key.deliveryId).gsi1pk,
              ':at': at,
              ':expiresAt': expiresAt(at),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? toDelivery(Attributes) : undefined;
      } catch (failure) {
        if (failure instanceof ConditionalCheckFailedException) return undefined;
        throw failure;
      }
    },

    async listDeliveries(tenantId, workspaceId, webhookId, query) {
      const partition = keys.deliveryPartition(tenantId, workspaceId, webhookId);
      const plan = deliveryListQuery(tableName, partition, query);
      const start = query.cursor ? decodeCursor(query.cursor, plan.scope) : undefined;
      const found = await queryLookingAhead(db, plan.input, {
        limit: query.limit,
        scope: plan.scope,
        ...(start && { startKey: plan.startKey(start) }),
      });
      return { ...found, items: found.items.map(toDelivery) };
    },
  };
}
