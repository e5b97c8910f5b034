import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeCallCounter } from '../../shared/adapters/dynamodb/call-counter.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { localTableNames, type TableNames } from '../../shared/adapters/dynamodb/tables.js';

describe('DynamoDB call counter on DynamoDB Local', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  const db = makeDocumentClient(client);
  const counter = makeCallCounter({ consumedCapacity: true });
  let tables: TableNames;

  beforeAll(async () => {
    tables = localTableNames(`c${Math.random().toString(36).slice(2, 8)}-`);
    await ensureTables(client, tables);
    counter.attach(client);
  });
  afterAll(() => client.destroy());

  it('counts the document client calls by operation and table, reads apart from writes, conditions and refusals', async () => {
    // Prepare
    counter.reset();
    const key = { pk: 'COUNT#1', sk: 'COUNT#1' };

    // Act
    await db.send(new PutCommand({ TableName: tables.main, Item: { ...key, n: 1 } }));
    await db.send(
      new UpdateCommand({
        TableName: tables.main,
        Key: key,
        UpdateExpression: 'SET n = :two',
        ConditionExpression: 'n = :one',
        ExpressionAttributeValues: { ':one': 1, ':two': 2 },
      }),
    );
    const refused = db.send(
      new UpdateCommand({
        TableName: tables.main,
        Key: key,
        UpdateExpression: 'SET n = :two',
        ConditionExpression: 'n = :one',
        ExpressionAttributeValues: { ':one': 1, ':two': 3 },
      }),
    );
    await expect(refused).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    await db.send(new GetCommand({ TableName: tables.main, Key: key }));
    await db.send(new BatchGetCommand({ RequestItems: { [tables.main]: { Keys: [key] } } }));
    await db.send(
      new BatchWriteCommand({
        RequestItems: {
          [tables.main]: [
            { PutRequest: { Item: { pk: 'COUNT#3', sk: 'COUNT#3' } } },
            { PutRequest: { Item: { pk: 'COUNT#4', sk: 'COUNT#4' } } },
          ],
        },
      }),
    );
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tables.main, Item: { pk: 'COUNT#2', sk: 'COUNT#2' } } },
          {
            ConditionCheck: {
              TableName: tables.rateLimits,
              Key: { pk: 'x' },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );

    // Assess
    const { byCommand, totals } = counter.snapshot();
    const row = (command: string) => byCommand.find((r) => r.command === command);
    expect(row('PutItem')).toMatchObject({
      table: tables.main,
      kind: 'write',
      calls: 1,
      conditional: 0,
      failed: 0,
    });
    expect(row('UpdateItem')).toMatchObject({
      table: tables.main,
      kind: 'write',
      calls: 2,
      conditional: 2,
      failed: 1,
    });
    expect(row('GetItem')).toMatchObject({ kind: 'read', calls: 1 });
    expect(row('BatchGetItem')).toMatchObject({ table: tables.main, kind: 'read', calls: 1 });
    expect(row('TransactWriteItems')).toMatchObject({
      table: [tables.main, tables.rateLimits].sort().join('+'),
      calls: 1,
      conditional: 1,
    });
    expect(row('BatchWriteItem')).toMatchObject({ kind: 'write', calls: 1, itemWrites: 2, conditional: 0 });
    expect(row('TransactWriteItems')).toMatchObject({ itemWrites: 1 });
    // Item writes: the PutItem, the UpdateItem that succeeded (the refused one wrote nothing), the
    // batch's two puts, the transaction's one put.
    expect(totals).toMatchObject({
      calls: 7,
      reads: 2,
      writes: 5,
      itemWrites: 5,
      conditionalWrites: 3,
      failed: 1,
    });
    // DynamoDB Local answers ReturnConsumedCapacity: the successful calls consumed something.
    expect(totals.writeUnits).toBeGreaterThan(0);
    expect(totals.readUnits).toBeGreaterThan(0);
  });

  it("names calls with the caller's classify and keeps the peak of calls in flight", async () => {
    const labelled = makeCallCounter({
      classify: ({ input }) =>
        String((input.Key as { pk?: string })?.pk ?? '').startsWith('A#') ? 'a' : 'other',
    });
    const other = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
    labelled.attach(other);
    const otherDb = makeDocumentClient(other);

    await Promise.all(
      ['A#1', 'A#2', 'B#1'].map((pk) =>
        otherDb.send(new GetCommand({ TableName: tables.main, Key: { pk, sk: pk } })),
      ),
    );

    const { byCommand, peakInFlight } = labelled.snapshot();
    expect(byCommand.map((row) => [row.label, row.command, row.calls])).toEqual([
      ['a', 'GetItem', 2],
      ['other', 'GetItem', 1],
    ]);
    expect(peakInFlight).toBe(3);
    other.destroy();
  });

  it('starts again from nothing after reset', async () => {
    await db.send(new GetCommand({ TableName: tables.main, Key: { pk: 'none', sk: 'none' } }));

    counter.reset();

    expect(counter.snapshot()).toEqual({
      byCommand: [],
      peakInFlight: 0,
      inFlight: 0,
      totals: {
        calls: 0,
        reads: 0,
        writes: 0,
        itemWrites: 0,
        conditionalWrites: 0,
        failed: 0,
        readUnits: 0,
        writeUnits: 0,
      },
    });
  });
});
