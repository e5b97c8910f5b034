import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { TABLES, type TableDefinition, type TableNames } from './tables.js';

/** The CreateTable input for a definition (on-demand, as in the deployed stack). */
export function createTableInput(definition: TableDefinition, tableName: string): CreateTableCommandInput {
  const keyAttributes = [
    definition.partitionKey,
    ...(definition.sortKey ? [definition.sortKey] : []),
    ...definition.globalSecondaryIndexes.flatMap((index) => [
      index.partitionKey,
      ...(index.sortKey ? [index.sortKey] : []),
    ]),
  ];
  const attributeDefinitions = [...new Map(keyAttributes.map((a) => [a.name, a])).values()].map((a) => ({
    AttributeName: a.name,
    AttributeType: a.type,
  }));
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: attributeDefinitions,
    KeySchema: [
      { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
      ...(definition.sortKey ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' as const }] : []),
    ],
    ...(definition.globalSecondaryIndexes.length > 0 && {
      GlobalSecondaryIndexes: definition.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
          ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
    ...(definition.stream && {
      StreamSpecification: { StreamEnabled: true, StreamViewType: definition.stream },
    }),
  };
}

/**
 * An index a newer version defines but an existing local table lacks (a data folder from an
 * older version): added in place, as CDK would.
 */
async function addMissingIndexes(client: DynamoDBClient, definition: TableDefinition, tableName: string) {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const input = createTableInput(definition, tableName);
  for (const index of input.GlobalSecondaryIndexes ?? []) {
    if (present.has(index.IndexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: input.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
  }
}

/** Creates the table unless it exists (local host and tests only; AWS tables come from CDK). */
export async function ensureTable(client: DynamoDBClient, definition: TableDefinition, tableName: string) {
  try {
    await client.send(new CreateTableCommand(createTableInput(definition, tableName)));
  } catch (error) {
    if (error instanceof ResourceInUseException) {
      await addMissingIndexes(client, definition, tableName);
      return;
    }
    throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
  if (definition.timeToLiveAttribute) {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { Enabled: true, AttributeName: definition.timeToLiveAttribute },
      }),
    );
  }
}

/** Every table of the service, under the given names (local host and tests). */
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  for (const definition of TABLES) await ensureTable(client, definition, names[definition.name]);
}
