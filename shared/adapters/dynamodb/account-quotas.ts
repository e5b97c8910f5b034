import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AccountQuotas } from '../../ports/account-quotas.js';

/** Counters live two days (so today's and yesterday's are readable), then TTL removes them. */
const KEEP_SECONDS = 2 * 24 * 3600;

/**
 * One counter item per account and UTC day in the rate-limits table; a reservation is one
 * conditional UpdateItem, so concurrent deliveries can never pass the ceiling together. A network's
 * own count, as its connector last read it, is one more item per account (`NETQUOTA#<acc>`).
 */
export function makeDynamoAccountQuotas(db: DynamoDBDocumentClient, tableName: string): AccountQuotas {
  const key = (accountId: string, day: string) => ({ pk: `QUOTA#${accountId}#${day}` });
  const readingKey = (accountId: string) => `NETQUOTA#${accountId}`;
  return {
    async reserve(accountId, day, cost, limit) {
      if (cost > limit) return false;
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key(accountId, day),
            UpdateExpression: 'ADD used :cost SET expiresAt = if_not_exists(expiresAt, :expires)',
            ConditionExpression: 'attribute_not_exists(used) OR used <= :room',
            ExpressionAttributeValues: {
              ':cost': cost,
              ':room': limit - cost,
              ':expires': Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + KEEP_SECONDS,
            },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
    async release(accountId, day, cost) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key(accountId, day),
            UpdateExpression: 'ADD used :minus',
            ConditionExpression: 'used >= :cost',
            ExpressionAttributeValues: { ':minus': -cost, ':cost': cost },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
    async used(accountId, day) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key(accountId, day) }));
      return Number(Item?.used ?? 0);
    },
    async recordNetworkReading(accountId, reading) {
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              pk: readingKey(accountId),
              ...reading,
              expiresAt: Math.floor(Date.parse(reading.readAt) / 1000) + KEEP_SECONDS,
            },
            // Two deliveries may read at once: the later reading stays.
            ConditionExpression: 'attribute_not_exists(readAt) OR readAt <= :readAt',
            ExpressionAttributeValues: { ':readAt': reading.readAt },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
    async networkReading(accountId) {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: { pk: readingKey(accountId) } }),
      );
      if (!Item) return undefined;
      return {
        used: Number(Item.used),
        total: Number(Item.total),
        windowSeconds: Number(Item.windowSeconds),
        readAt: String(Item.readAt),
      };
    },
  };
}
