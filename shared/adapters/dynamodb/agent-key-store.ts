import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { Agent, ApiKeyRecord, Tenant } from '../../domain/tenancy.js';
import type { AgentKeyStore } from '../../ports/agent-key-store.js';
import { queryAll, readItem } from './item-reads.js';
import { fromItem, keys, toItem } from './keys.js';

/**
 * Agents, in their tenant's partition, and API keys, under their hash with a gsi1 entry by tenant
 * and key id (docs/data-model.md).
 */
export function makeDynamoAgentKeyStore(db: DynamoDBDocumentClient, tableName: string): AgentKeyStore {
  return {
    async putAgent(agent) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem('agent', keys.agent(agent.tenantId, agent.agentId), agent),
        }),
      );
    },
    getAgent: (tenantId, agentId) => readItem<Agent>(db, tableName, keys.agent(tenantId, agentId)),
    listAgents: (tenantId) => {
      const { pk, sk: prefix } = keys.agent(tenantId, '');
      return queryAll<Agent>(db, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      });
    },

    async putApiKey(record) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem(
            'apiKey',
            { ...keys.apiKey(record.keyHash), ...keys.apiKeyById(record.tenantId, record.keyId) },
            record,
          ),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
    getApiKeyByHash: (keyHash) => readItem<ApiKeyRecord>(db, tableName, keys.apiKey(keyHash)),
    async revokeApiKey(tenantId, keyId, at) {
      const byId = keys.apiKeyById(tenantId, keyId);
      const { Items } = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
          ExpressionAttributeValues: { ':pk': byId.gsi1pk, ':sk': byId.gsi1sk },
        }),
      );
      const found = Items?.[0] ? fromItem<ApiKeyRecord>(Items[0]) : undefined;
      if (!found) throw new NotFoundError('No such API key in this tenant.');
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.apiKey(found.keyHash),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
            UpdateExpression: 'SET revokedAt = :at',
            ExpressionAttributeValues: { ':at': at },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return fromItem<ApiKeyRecord>(Attributes ?? {});
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException)
          throw new ConflictError('The API key is already revoked.');
        throw error;
      }
    },

    listApiKeys: (tenantId, agentId) => {
      const { gsi1pk, gsi1sk: prefix } = keys.apiKeyById(tenantId, '');
      return queryAll<ApiKeyRecord>(db, {
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
        FilterExpression: 'agentId = :agentId',
        ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': prefix, ':agentId': agentId },
      });
    },
    async touchApiKey(keyHash, at) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.apiKey(keyHash),
            // Never moves back: two processes may record uses out of order.
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :at)',
            UpdateExpression: 'SET lastUsedAt = :at',
            ExpressionAttributeValues: { ':at': at },
          }),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return;
        throw error;
      }
    },

    async getTenantAndAgent(tenantId, agentId) {
      const tenantKey = keys.tenant(tenantId);
      const agentKey = keys.agent(tenantId, agentId);
      const { Responses, UnprocessedKeys } = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: [tenantKey, agentKey] } } }),
      );
      let items = Responses?.[tableName] ?? [];
      // BatchGet may hand back keys it did not get to; fetch those one by one rather than fail.
      const unprocessed = UnprocessedKeys?.[tableName]?.Keys ?? [];
      for (const key of unprocessed) {
        const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key }));
        if (Item) items = [...items, Item];
      }
      const tenantItem = items.find((item) => item.sk === tenantKey.sk);
      const agentItem = items.find((item) => item.sk === agentKey.sk);
      return {
        ...(tenantItem && { tenant: fromItem<Tenant>(tenantItem) }),
        ...(agentItem && { agent: fromItem<Agent>(agentItem) }),
      };
    },
  };
}
