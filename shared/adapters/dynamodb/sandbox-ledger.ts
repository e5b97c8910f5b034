import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SandboxLedger, SandboxPublication } from '../../networks/sandbox/ledger.js';

/**
 * The sandbox network's memory in the main table, so that it survives restarts and is shared by
 * every worker: one item per client reference; the first writer wins.
 */
export function makeDynamoSandboxLedger(db: DynamoDBDocumentClient, tableName: string): SandboxLedger {
  const key = (clientReference: string) => ({ pk: `SANDBOX#${clientReference}`, sk: 'SANDBOX' });
  return {
    async record(clientReference, result) {
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...key(clientReference), entity: 'sandboxPublication', ...result },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
    async find(clientReference) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key(clientReference) }));
      if (!Item) return undefined;
      const { platformPostId, platformPostUrl, publishedAt } = Item as SandboxPublication;
      return { platformPostId, platformPostUrl, publishedAt };
    },
  };
}
