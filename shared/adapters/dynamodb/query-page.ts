import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Page, PageRequest } from '../../ports/tenancy-store.js';
import { type CursorScope, decodeCursor, encodeCursor } from './cursor.js';
import { fromItem } from './keys.js';

/**
 * One page of a partition's items whose sort key starts with `prefix`, optionally filtered on
 * attributes by equality. The cursor carries only the sort key, bound to this partition, prefix,
 * filter and order (see cursor.ts): a cursor of another list or filter is a 400, never a 500.
 */
export async function queryPage<T>(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: {
    pk: string;
    prefix: string;
    page: PageRequest;
    filter?: Record<string, string>;
    newestFirst?: boolean;
  },
): Promise<Page<T>> {
  const { pk, prefix, page, filter } = query;
  const filterNames = Object.keys(filter ?? {}).sort();
  const scope: CursorScope = {
    query: {
      pk,
      prefix,
      order: query.newestFirst ? 'newest' : 'oldest',
      ...Object.fromEntries(filterNames.map((name) => [`filter.${name}`, filter?.[name]])),
    },
    keys: { sk: { prefix } },
  };
  const start = page.cursor ? decodeCursor(page.cursor, scope) : undefined;
  const result = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ...(filterNames.length > 0 && {
        FilterExpression: filterNames.map((_, i) => `#f${i} = :f${i}`).join(' AND '),
        ExpressionAttributeNames: Object.fromEntries(filterNames.map((name, i) => [`#f${i}`, name])),
      }),
      ExpressionAttributeValues: {
        ':pk': pk,
        ':prefix': prefix,
        ...Object.fromEntries(filterNames.map((name, i) => [`:f${i}`, filter?.[name]])),
      },
      ...(query.newestFirst && { ScanIndexForward: false }),
      Limit: page.limit,
      ...(start && { ExclusiveStartKey: { pk, sk: start.sk } }),
    }),
  );
  const next = encodeCursor(result.LastEvaluatedKey, scope);
  return { items: (result.Items ?? []).map((item) => fromItem<T>(item)), ...(next && { nextCursor: next }) };
}
