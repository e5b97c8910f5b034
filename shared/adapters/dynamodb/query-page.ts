import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Page, PageRequest } from '../../ports/page.js';
import { type CursorScope, decodeCursor } from './cursor.js';
import { fromItem } from './keys.js';
import { queryLookingAhead } from './look-ahead-query.js';

/**
 * One page of a partition's items whose sort key starts with `prefix`, optionally filtered on
 * attributes by equality, looking one item ahead (look-ahead-query.ts). The cursor carries only
 * the sort key, bound to this partition, prefix, filter and order (see cursor.ts): a cursor of
 * another list or filter is a 400, never a 500. `keep` is not in the cursor's scope: it narrows what
 * the caller may see of the same list (an agent's workspaces), and a position stays valid under it.
 */
export async function queryPage<T>(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: {
    pk: string;
    prefix: string;
    page: PageRequest;
    filter?: Record<string, string>;
    /** A filter DynamoDB cannot apply (a domain rule): items it refuses do not count toward the page. */
    keep?: (item: T) => boolean;
    newestFirst?: boolean;
  },
): Promise<Page<T>> {
  const { pk, prefix, page, filter, keep } = query;
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
  const found = await queryLookingAhead(
    db,
    {
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
    },
    {
      limit: page.limit,
      scope,
      ...(start && { startKey: { pk, sk: start.sk } }),
      ...(keep && { keep: (item) => keep(fromItem<T>(item)) }),
    },
  );
  return { ...found, items: found.items.map((item) => fromItem<T>(item)) };
}
