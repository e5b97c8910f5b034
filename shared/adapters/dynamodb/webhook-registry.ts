import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../domain/errors.js';
import {
  type Webhook,
  WebhookLimitReached,
  type WebhookRecord,
  type WebhookRegistry,
} from '../../ports/webhook-store.js';
import { fromItem, keys, toItem } from './keys.js';
import { queryPage } from './query-page.js';

/** Tries of a transaction that keeps losing to concurrent ones on the same counter. */
const MAX_TRANSACTION_TRIES = 10;

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** A pause of random length, growing with each try, so racing writers do not collide again in step. */
function jitteredBackoff(tryNumber: number): Promise<void> {
  const ceilingMs = Math.min(1000, 20 * 2 ** tryNumber);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceilingMs));
}

/**
 * Runs the transaction; answers undefined when it was written, or each item's cancellation code
 * when a condition refused it. A transaction cancelled only because another one was changing the
 * same item at that moment (TransactionConflict: concurrent creates on one workspace's counter)
 * is tried again after a pause; one that still loses after MAX_TRANSACTION_TRIES is a 409.
 */
async function transact(
  db: DynamoDBDocumentClient,
  items: TransactItems,
  backoff: (tryNumber: number) => Promise<void>,
): Promise<string[] | undefined> {
  for (let tryNumber = 1; ; tryNumber++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return undefined;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
      if (codes.includes('ConditionalCheckFailed')) return codes;
      if (!codes.includes('TransactionConflict')) throw error;
      if (tryNumber >= MAX_TRANSACTION_TRIES)
        throw new ConflictError("The workspace's webhooks are being changed by other requests. Retry.");
      await backoff(tryNumber);
    }
  }
}

/** What an API response may show: everything but the encrypted secret. */
function publicView(record: WebhookRecord): Webhook {
  const { secretCiphertext: _secret, ...view } = record;
  return view;
}

/**
 * Webhooks in their workspace's partition (`WEBHOOK#<whk>`), beside a counter item
 * (`COUNTER#WEBHOOKS`) that every create and delete changes in the same transaction: the limit
 * holds however many creates race.
 */
export function makeDynamoWebhookRegistry(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { backoff?: (tryNumber: number) => Promise<void> } = {},
): WebhookRegistry {
  const backoff = options.backoff ?? jitteredBackoff;
  const getRecord = async (tenantId: string, workspaceId: string, webhookId: string) => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.webhook(tenantId, workspaceId, webhookId),
        // A deleted webhook is gone at once: no read, and no delivery, may still see it.
        ConsistentRead: true,
      }),
    );
    return Item ? fromItem<WebhookRecord>(Item) : undefined;
  };

  const listFanOutWebhooks = async (tenantId: string, workspaceId: string): Promise<Webhook[]> => {
    // A workspace has at most a few dozen webhooks: one page, however many event types they name.
    const found: Webhook[] = [];
    let start: QueryCommandOutput['LastEvaluatedKey'];
    do {
      const result = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': keys.workspacePartition(tenantId, workspaceId),
            ':prefix': keys.webhookPrefix,
          },
          // A webhook created a moment ago receives the next event.
          ConsistentRead: true,
          ...(start && { ExclusiveStartKey: start }),
        }),
      );
      found.push(...(result.Items ?? []).map((item) => publicView(fromItem<WebhookRecord>(item))));
      start = result.LastEvaluatedKey;
    } while (start);
    return found;
  };

  return {
    async createWebhook(webhook, limit) {
      const codes = await transact(
        db,
        [
          {
            Update: {
              TableName: tableName,
              Key: keys.webhookCounter(webhook.tenantId, webhook.workspaceId),
              UpdateExpression: 'SET #entity = :entity ADD webhookCount :one',
              ConditionExpression: 'attribute_not_exists(webhookCount) OR webhookCount < :limit',
              ExpressionAttributeNames: { '#entity': 'entity' },
              ExpressionAttributeValues: { ':entity': 'webhookCounter', ':one': 1, ':limit': limit },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: toItem(
                'webhook',
                keys.webhook(webhook.tenantId, webhook.workspaceId, webhook.webhookId),
                webhook,
              ),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
        backoff,
      );
      if (!codes) return;
      if (codes[0] === 'ConditionalCheckFailed') throw new WebhookLimitReached(limit);
      throw new ConflictError('A webhook with this id already exists.');
    },

    async getWebhook(tenantId, workspaceId, webhookId) {
      const record = await getRecord(tenantId, workspaceId, webhookId);
      return record && publicView(record);
    },

    getWebhookForDelivery: getRecord,

    async listWebhooks(tenantId, workspaceId, page) {
      const found = await queryPage<WebhookRecord>(db, tableName, {
        pk: keys.workspacePartition(tenantId, workspaceId),
        prefix: keys.webhookPrefix,
        page,
      });
      return { ...found, items: found.items.map(publicView) };
    },

    listFanOutWebhooks,

    async deleteWebhook(tenantId, workspaceId, webhookId) {
      const codes = await transact(
        db,
        [
          {
            Delete: {
              TableName: tableName,
              Key: keys.webhook(tenantId, workspaceId, webhookId),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Update: {
              TableName: tableName,
              Key: keys.webhookCounter(tenantId, workspaceId),
              UpdateExpression: 'ADD webhookCount :minusOne',
              ExpressionAttributeValues: { ':minusOne': -1 },
            },
          },
        ],
        backoff,
      );
      return codes === undefined;
    },

    async recordDeliveryOutcome(tenantId, workspaceId, webhookId, outcome) {
      const failures =
        outcome.status === 'succeeded'
          ? 'SET consecutiveFailures = :zero, lastDeliveryAt = :at, lastDeliveryStatus = :status'
          : 'SET lastDeliveryAt = :at, lastDeliveryStatus = :status ADD consecutiveFailures :one';
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.webhook(tenantId, workspaceId, webhookId),
            UpdateExpression: failures,
            // Never recreates a deleted webhook; an outcome older than the one shown is dropped.
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(lastDeliveryAt) OR lastDeliveryAt <= :at)',
            ExpressionAttributeValues: {
              ':at': outcome.at,
              ':status': outcome.status,
              ...(outcome.status === 'succeeded' ? { ':zero': 0 } : { ':one': 1 }),
            },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
  };
}
