import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { fromItem } from './keys.js';

/** One item by its key, without the table's own attributes; undefined when there is none. */
export async function readItem<T>(
  db: DynamoDBDocumentClient,
  tableName: string,
  key: Record<string, string>,
  options: { consistent?: boolean } = {},
): Promise<T | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: key, ...(options.consistent && { ConsistentRead: true }) }),
  );
  return Item ? fromItem<T>(Item) : undefined;
}

/** Every item of a query, page after page: for the short lists of one tenant (agents, keys). */
export async function queryAll<T>(
  db: DynamoDBDocumentClient,
  command: Omit<QueryCommand['input'], 'ExclusiveStartKey'>,
): Promise<T[]> {
  const found: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({ ...command, ...(start && { ExclusiveStartKey: start }) }),
    );
    found.push(...(result.Items ?? []).map((item) => fromItem<T>(item)));
    start = result.LastEvaluatedKey;
  } while (start);
  return found;
}
