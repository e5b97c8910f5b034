import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CursorScope, decodeCursor } from '../../../shared/adapters/dynamodb/cursor.js';
import {
  FILTERED_QUERY_MIN_ITEMS,
  MAX_QUERIES_PER_PAGE,
  queryLookingAhead,
} from '../../../shared/adapters/dynamodb/look-ahead-query.js';

/**
 * The rounds of a page whose filter leaves items out: DynamoDB Local pages a filter the same way,
 * but how many Queries a page may send, and where its cursor then points, is played here exactly.
 */
const dbMock = mockClient(DynamoDBDocumentClient);
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const scope: CursorScope = { query: { list: 'things' }, keys: { sk: { prefix: 'THING#' } } };
const input = {
  TableName: 'main',
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': 'P' },
};
const item = (n: number) => ({ pk: 'P', sk: `THING#${String(n).padStart(3, '0')}`, n });
const positionOf = (cursor: string | undefined) => decodeCursor(cursor ?? '', scope).sk;

describe('queryLookingAhead', () => {
  beforeEach(() => {
    dbMock.reset();
  });

  it('asks for limit + 1 and, with one more item, answers limit items and the last one’s position', async () => {
    // Prepare
    dbMock.on(QueryCommand).resolves({ Items: [item(1), item(2), item(3)], LastEvaluatedKey: item(3) });

    // Act
    const page = await queryLookingAhead(db, input, { limit: 2, scope });

    // Assess
    expect(dbMock.commandCalls(QueryCommand)[0]?.args[0].input.Limit).toBe(3);
    expect(page.items).toEqual([item(1), item(2)]);
    expect(positionOf(page.nextCursor)).toBe('THING#002');
  });

  it(`evaluates at least ${FILTERED_QUERY_MIN_ITEMS} items a Query when a filter may leave most out`, async () => {
    dbMock.on(QueryCommand).resolves({ Items: [item(1)] });

    const filteredPage = await queryLookingAhead(
      db,
      { ...input, FilterExpression: '#f0 = :f0' },
      { limit: 1, scope },
    );
    const keptPage = await queryLookingAhead(db, input, { limit: 1, scope, keep: () => true });

    const limits = dbMock.commandCalls(QueryCommand).map((call) => call.args[0].input.Limit);
    expect(limits).toEqual([FILTERED_QUERY_MIN_ITEMS, FILTERED_QUERY_MIN_ITEMS]);
    // One match and the end of the range: the page ends the list, with no cursor to an empty page.
    expect(filteredPage).toEqual({ items: [item(1)] });
    expect(keptPage).toEqual({ items: [item(1)] });
  });

  it('answers no cursor for an exactly full last page, though DynamoDB gave a LastEvaluatedKey', async () => {
    dbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [item(1), item(2)], LastEvaluatedKey: item(2) })
      .resolves({ Items: [] });

    const page = await queryLookingAhead(db, input, { limit: 2, scope });

    expect(page).toEqual({ items: [item(1), item(2)] });
    expect(dbMock.commandCalls(QueryCommand)[1]?.args[0].input.ExclusiveStartKey).toEqual(item(2));
  });

  it(`reads on past a filter at most ${MAX_QUERIES_PER_PAGE} times, then goes out short with where it stopped`, async () => {
    // Prepare: every Query finds one match among the items it evaluates.
    let n = 0;
    dbMock.on(QueryCommand).callsFake(() => {
      n += 10;
      return { Items: [item(n)], LastEvaluatedKey: item(n + 5) };
    });

    // Act
    const page = await queryLookingAhead(db, input, { limit: 5, scope });

    // Assess
    expect(dbMock.commandCalls(QueryCommand)).toHaveLength(MAX_QUERIES_PER_PAGE);
    expect(page.items).toHaveLength(MAX_QUERIES_PER_PAGE);
    expect(positionOf(page.nextCursor)).toBe(`THING#0${MAX_QUERIES_PER_PAGE * 10 + 5}`);
  });

  it('counts only the items `keep` keeps, and points the cursor at the last one kept', async () => {
    dbMock
      .on(QueryCommand)
      .resolves({ Items: [item(1), item(2), item(3), item(4)], LastEvaluatedKey: item(4) });

    const page = await queryLookingAhead(db, input, { limit: 1, scope, keep: (found) => found.n !== 1 });

    expect(page.items).toEqual([item(2)]);
    expect(positionOf(page.nextCursor)).toBe('THING#002');
  });
});
