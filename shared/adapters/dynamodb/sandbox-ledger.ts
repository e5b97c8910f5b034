import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { SandboxLedger, SandboxPublication } from '../../networks/sandbox/ledger.js';

function publicationOf(item: Record<string, unknown>): SandboxPublication {
  const { platformPostId, platformPostUrl, publishedAt } = item as unknown as SandboxPublication;
  return { platformPostId, platformPostUrl, publishedAt };
}

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
            // The refusal carries the item already there: one round trip either way.
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { ...result };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        // DynamoDB (and DynamoDB Local) send the item with the refusal when asked to.
        if (!error.Item)
          throw new Error(`The sandbox ledger refused ${clientReference} without the item it holds.`);
        return publicationOf(unmarshall(error.Item));
      }
    },
    async find(clientReference) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key(clientReference) }));
      return Item ? publicationOf(Item) : undefined;
    },
  };
}
