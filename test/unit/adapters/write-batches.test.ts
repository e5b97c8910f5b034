import type { BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { UnprocessedWritesError, writeInBatches } from '../../../shared/adapters/dynamodb/write-batches.js';

const TABLE = 'feed';
const put = (n: number) => ({ PutRequest: { Item: { pk: 'P', sk: `E#${n}` } } });
const keysOf = (input: BatchWriteCommandInput) =>
  (input.RequestItems?.[TABLE] ?? []).map((request) => String(request.PutRequest?.Item?.sk));

/** A BatchWriteItem that leaves the first `leave` requests of each call unprocessed, `times` times. */
function throttled(leave: number, times: number) {
  const calls: string[][] = [];
  let left = times;
  return {
    calls,
    writeBatch: async (input: BatchWriteCommandInput) => {
      calls.push(keysOf(input));
      const requests = input.RequestItems?.[TABLE] ?? [];
      if (left-- <= 0) return {};
      return { UnprocessedItems: { [TABLE]: requests.slice(0, leave) } };
    },
  };
}

describe('writeInBatches', () => {
  it('writes 60 requests in three calls of at most 25, in order', async () => {
    const store = throttled(0, 0);
    await writeInBatches(
      TABLE,
      Array.from({ length: 60 }, (_, n) => put(n)),
      { writeBatch: store.writeBatch },
    );
    expect(store.calls.map((call) => call.length)).toEqual([25, 25, 10]);
    expect(store.calls.flat()).toEqual(Array.from({ length: 60 }, (_, n) => `E#${n}`));
  });

  it('sends again only what DynamoDB left unprocessed, waiting 50 ms and then 100 ms', async () => {
    const store = throttled(2, 2);
    const waits: number[] = [];
    await writeInBatches(TABLE, [put(1), put(2), put(3)], {
      writeBatch: store.writeBatch,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(store.calls).toEqual([
      ['E#1', 'E#2', 'E#3'],
      ['E#1', 'E#2'],
      ['E#1', 'E#2'],
    ]);
    expect(waits).toEqual([50, 100]);
  });

  it('gives up with UnprocessedWritesError after its attempts, saying how many were left', async () => {
    const store = throttled(1, 10);
    const attempt = writeInBatches(TABLE, [put(1), put(2)], {
      writeBatch: store.writeBatch,
      attempts: 3,
      sleep: async () => {},
    });
    await expect(attempt).rejects.toThrow(UnprocessedWritesError);
    await expect(attempt).rejects.toMatchObject({ tableName: TABLE, unprocessed: 1 });
    expect(store.calls).toHaveLength(3);
  });

  it('makes no call for no requests', async () => {
    const store = throttled(0, 0);
    await writeInBatches(TABLE, [], { writeBatch: store.writeBatch });
    expect(store.calls).toEqual([]);
  });
});
