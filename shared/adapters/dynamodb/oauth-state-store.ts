import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { OAuthStateStore, PendingConnect } from '../../ports/oauth-state-store.js';
import { fromItem, keys, toItem } from './keys.js';

/** TTL deletes an expired state some time after this (epoch seconds); reads never trust TTL alone. */
const ttlSeconds = (expiresAt: string) => Math.ceil(Date.parse(expiresAt) / 1000);

/**
 * Pending connects in the main table, one item per state (`OAUTHSTATE#<sha256>`), deleted by TTL.
 * Taking one is a DeleteItem that returns the old item: DynamoDB gives it to exactly one caller.
 */
export function makeDynamoOAuthStateStore(db: DynamoDBDocumentClient, tableName: string): OAuthStateStore {
  return {
    async put(pending) {
      const { expiresAt, ...rest } = pending;
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem('oauthState', keys.oauthState(pending.stateHash), {
            ...rest,
            expiresAtIso: expiresAt,
            expiresAt: ttlSeconds(expiresAt),
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
    async take(stateHash, now) {
      try {
        const { Attributes } = await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.oauthState(stateHash),
            ConditionExpression: 'attribute_exists(pk)',
            ReturnValues: 'ALL_OLD',
          }),
        );
        if (!Attributes) return undefined;
        const {
          expiresAtIso,
          expiresAt: _ttl,
          ...rest
        } = fromItem<Omit<PendingConnect, 'expiresAt'> & { expiresAtIso: string; expiresAt: number }>(
          Attributes,
        );
        if (Date.parse(expiresAtIso) <= now) return undefined;
        return { ...rest, expiresAt: expiresAtIso };
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return undefined;
        throw error;
      }
    },
  };
}
