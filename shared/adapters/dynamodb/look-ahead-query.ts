import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { type CursorScope, encodeCursor } from './cursor.js';

/**
 * Queries one page may send: a filter that leaves most items out reads on in the next Query, up to
 * this many, after which the page goes out short with a cursor (the documented "a page may hold
 * fewer than limit items") rather than read a whole partition for one request.
 */
export const MAX_QUERIES_PER_PAGE = 4;

/**
 * Items a filtered Query evaluates at least (its Limit counts items before the filter): a filter
 * that keeps one item in eight would otherwise read the few items `limit + 1` allows four times
 * and go out with a cursor to an empty page, even at the end of the list.
 */
export const FILTERED_QUERY_MIN_ITEMS = 25;

type Item = Record<string, unknown>;

export interface LookAheadPage {
  items: Item[];
  nextCursor?: string;
}

/**
 * One page of a Query that looks one item ahead: it asks for `limit + 1` items (a filtered one for at
 * least FILTERED_QUERY_MIN_ITEMS, as its filter may leave most out), so a page that ends the list says so (no nextCursor) and a client walking the list never asks for an empty page.
 * - more than `limit` items: the page is the first `limit`, and the cursor is the last one's
 *   position (the same `{q, p}` cursor DynamoDB's LastEvaluatedKey would give: the scope's key
 *   attributes, which every item carries);
 * - a filter (FilterExpression, or `keep` for one that cannot be written as one) that left items
 *   out before the end: the next Query reads on from where this one stopped;
 * - the end of the key range: no cursor.
 */
export async function queryLookingAhead(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>,
  page: { limit: number; startKey?: Item | undefined; scope: CursorScope; keep?: (item: Item) => boolean },
): Promise<LookAheadPage> {
  const found: Item[] = [];
  let startKey = page.startKey;
  const filtered = input.FilterExpression !== undefined || page.keep !== undefined;
  const limit = filtered ? Math.max(page.limit + 1, FILTERED_QUERY_MIN_ITEMS) : page.limit + 1;
  for (let query = 0; query < MAX_QUERIES_PER_PAGE; query++) {
    const result = await db.send(
      new QueryCommand({ ...input, Limit: limit, ...(startKey && { ExclusiveStartKey: startKey }) }),
    );
    const items = result.Items ?? [];
    found.push(...(page.keep ? items.filter(page.keep) : items));
    startKey = result.LastEvaluatedKey;
    if (found.length > page.limit || !startKey) break;
  }
  const more = found.length > page.limit;
  const items = more ? found.slice(0, page.limit) : found;
  const next = encodeCursor(more ? items[items.length - 1] : startKey, page.scope);
  return { items, ...(next && { nextCursor: next }) };
}
