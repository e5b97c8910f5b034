import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  PutItemCommand,
  UpdateItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  makeStreamPoller,
  StreamNotEnabledError,
  type StreamPoller,
  type StreamPollerOptions,
} from '../../../infra/local/stand-ins/stream-poller.js';
import { makeDynamoClient } from '../../../shared/adapters/dynamodb/client.js';
import { ensureTable } from '../../../shared/adapters/dynamodb/create-tables.js';
import { MAIN_TABLE, RATE_LIMITS_TABLE } from '../../../shared/adapters/dynamodb/tables.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';
import { eventually, pause } from './eventually.js';

const REGION = 'us-east-1';

describe('stream poller: DynamoDB Streams → Lambda on DynamoDB Local', () => {
  const endpoint = inject('dynamodbEndpoint');
  const prefix = `t${Math.random().toString(36).slice(2, 10)}-`;
  let client: DynamoDBClient;
  let dataDir: string;
  let tableName: string;
  let tableCount = 0;
  let batches: DynamoDBRecord[][];
  let logger: ReturnType<typeof makeMemoryLogger>;
  const pollers: StreamPoller[] = [];

  /** A poller on the test's table and checkpoint file; its handler records each batch, then answers with `respond`. */
  const startPoller = async (
    respond: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined> = async () =>
      undefined,
    options: Partial<StreamPollerOptions> = {},
  ) => {
    const poller = makeStreamPoller({
      endpoint,
      region: REGION,
      tableName,
      checkpointFile: join(dataDir, 'streams', `${tableName}.json`),
      pollIntervalMs: 5,
      discoveryIntervalMs: 50,
      retryDelayMs: 5,
      logger,
      handler: async (event) => {
        batches.push(event.Records);
        return respond(event);
      },
      ...options,
    });
    pollers.push(poller);
    await poller.start();
    return poller;
  };
  const stopAll = async () => {
    for (const poller of pollers.splice(0)) await poller.stop();
  };
  const key = (id: string) => ({ pk: { S: `item#${id}` }, sk: { S: 'v' } });
  const put = (id: string, extra: Record<string, { S: string } | { N: string }> = {}) =>
    client.send(new PutItemCommand({ TableName: tableName, Item: { ...key(id), ...extra } }));
  /** Every record delivered, in order, as "EVENT id". */
  const delivered = () =>
    batches
      .flat()
      .map((record) => `${record.eventName} ${record.dynamodb?.Keys?.pk?.S?.slice('item#'.length)}`);

  beforeAll(() => {
    client = makeDynamoClient({ region: REGION, endpoint });
  });
  afterAll(() => {
    client.destroy();
  });
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'smcp-streams-'));
    tableCount += 1;
    tableName = `${prefix}main-${tableCount}`;
    await ensureTable(client, MAIN_TABLE, tableName);
    batches = [];
    logger = makeMemoryLogger();
  });
  afterEach(async () => {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the first records of a table whose stream was empty while another table was written first', async () => {
    // Prepare: the poller takes its iterator while the shard is empty (DynamoDB Local ties such an
    // iterator to the database-wide next sequence number, which another table's write then takes).
    await startPoller();
    const other = `${prefix}other-${tableCount}`;
    await ensureTable(client, MAIN_TABLE, other);
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Act
    await client.send(new PutItemCommand({ TableName: other, Item: key('elsewhere') }));
    await put('first');
    await put('second');

    // Assess
    await eventually(() => expect(delivered()).toEqual(['INSERT first', 'INSERT second']));
  });

  it('delivers INSERT, MODIFY and REMOVE in order, with keys and old and new images as Lambda does', async () => {
    // Prepare
    await startPoller();

    // Act
    await put('a', { v: { N: '1' } });
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: key('a'),
        UpdateExpression: 'SET v = :v',
        ExpressionAttributeValues: { ':v': { N: '2' } },
      }),
    );
    await client.send(new DeleteItemCommand({ TableName: tableName, Key: key('a') }));

    // Assess
    await eventually(() => expect(delivered()).toEqual(['INSERT a', 'MODIFY a', 'REMOVE a']));
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const [insert, modify, remove] = batches.flat();
    const common = {
      eventID: expect.any(String),
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: REGION,
      eventSourceARN: Table?.LatestStreamArn,
    };
    const image = (v: string) => ({ ...key('a'), v: { N: v } });
    expect(insert).toEqual({
      ...common,
      eventName: 'INSERT',
      dynamodb: {
        ApproximateCreationDateTime: expect.any(Number),
        Keys: key('a'),
        NewImage: image('1'),
        SequenceNumber: expect.any(String),
        SizeBytes: expect.any(Number),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    });
    expect(modify).toMatchObject({
      ...common,
      eventName: 'MODIFY',
      dynamodb: { OldImage: image('1'), NewImage: image('2') },
    });
    expect(remove).toMatchObject({ ...common, eventName: 'REMOVE', dynamodb: { OldImage: image('2') } });
    expect(remove?.dynamodb?.NewImage).toBeUndefined();
    const sequence = batches.flat().map((record) => BigInt(record.dynamodb?.SequenceNumber ?? '0'));
    expect([...sequence].sort((x, y) => (x < y ? -1 : 1))).toEqual(sequence);
  });

  it('hands over at most batchSize records per invocation', async () => {
    // Prepare: five changes waiting before the poller starts.
    for (const id of ['1', '2', '3', '4', '5']) await put(id);

    // Act
    await startPoller(async () => undefined, { batchSize: 2 });

    // Assess
    await eventually(() => expect(delivered()).toHaveLength(5));
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
  });

  it('hands over only the records its filter accepts, in order, and a restart does not bring the others back', async () => {
    // Prepare: an outbox-like filter on an attribute of the new image.
    const wanted = (entity: string) => ({ entity: { S: entity } });
    const accepts: StreamPollerOptions['accepts'] = (record) =>
      record.dynamodb?.NewImage?.entity?.S === 'post';
    await startPoller(async () => undefined, { accepts });

    // Act
    await put('1', wanted('post'));
    await put('2', wanted('event'));
    await put('3', wanted('post'));
    await put('4', wanted('event'));
    await client.send(new DeleteItemCommand({ TableName: tableName, Key: key('1') }));

    // Assess: the removal has no new image, so it is refused too.
    await eventually(() => expect(delivered()).toEqual(['INSERT 1', 'INSERT 3']));
    await pause(30);
    await stopAll();
    batches = [];
    await put('5', wanted('post'));
    await startPoller(async () => undefined, { accepts });
    await eventually(() => expect(delivered()).toEqual(['INSERT 5']));
    await pause(30);
    expect(delivered()).toEqual(['INSERT 5']);
  });

  it('resumes after a restart from its checkpoint, without delivering processed records again', async () => {
    // Prepare: two changes processed, then the host stops.
    await startPoller();
    await put('a');
    await put('b');
    await eventually(() => expect(delivered()).toEqual(['INSERT a', 'INSERT b']));
    await stopAll();
    const checkpoint = JSON.parse(readFileSync(join(dataDir, 'streams', `${tableName}.json`), 'utf8'));
    await put('c');

    // Act: a new poller on the same checkpoint file.
    batches = [];
    await startPoller();

    // Assess
    await eventually(() => expect(delivered()).toEqual(['INSERT c']));
    await pause(30);
    expect(delivered()).toEqual(['INSERT c']);
    expect(Object.values(checkpoint.shards)).toEqual([
      { streamArn: expect.any(String), sequenceNumber: expect.stringMatching(/^\d+$/) },
    ]);
  });

  it('delivers again from the first failed record of a batch', async () => {
    // Prepare: three changes in one batch; "b" fails the first time.
    for (const id of ['a', 'b', 'c']) await put(id);

    // Act
    await startPoller(async (event) => {
      const b = event.Records.find((record) => record.dynamodb?.Keys?.pk?.S === 'item#b');
      return batches.length === 1 && b
        ? { batchItemFailures: [{ itemIdentifier: b.dynamodb?.SequenceNumber ?? '' }] }
        : undefined;
    });

    // Assess: "a" is not delivered again; "b" and everything after it is.
    await eventually(() => expect(batches).toHaveLength(2));
    expect(batches.map((batch) => batch.map((record) => record.dynamodb?.Keys?.pk?.S))).toEqual([
      ['item#a', 'item#b', 'item#c'],
      ['item#b', 'item#c'],
    ]);
  });

  it('delivers the whole batch again when the handler throws', async () => {
    // Prepare
    for (const id of ['a', 'b']) await put(id);

    // Act
    await startPoller(async () => {
      if (batches.length === 1) throw new Error('boom');
      return undefined;
    });

    // Assess
    await eventually(() => expect(batches).toHaveLength(2));
    expect(delivered()).toEqual(['INSERT a', 'INSERT b', 'INSERT a', 'INSERT b']);
  });

  it('skips a record that keeps failing after maxRetries, with a warning, and goes on', async () => {
    // Prepare: "b" always fails.
    for (const id of ['a', 'b', 'c']) await put(id);

    // Act
    await startPoller(
      async (event) => {
        const b = event.Records.find((record) => record.dynamodb?.Keys?.pk?.S === 'item#b');
        return b ? { batchItemFailures: [{ itemIdentifier: b.dynamodb?.SequenceNumber ?? '' }] } : undefined;
      },
      { maxRetries: 2 },
    );

    // Assess: "b" delivered three times (first try and two retries), then "c" alone.
    await eventually(() =>
      expect(batches.at(-1)?.map((record) => record.dynamodb?.Keys?.pk?.S)).toEqual(['item#c']),
    );
    expect(delivered().filter((entry) => entry === 'INSERT b')).toHaveLength(3);
    expect(delivered().filter((entry) => entry === 'INSERT a')).toHaveLength(1);
    expect(logger.entries).toContainEqual({
      level: 'warn',
      message: 'stream poller: skipping a record after its last failed delivery',
      fields: expect.objectContaining({
        eventName: 'INSERT',
        attempts: 3,
        sequenceNumber: expect.any(String),
      }),
    });
  });

  it('reads a closed shard to its end, then the shards that follow it', async () => {
    // Prepare: a change, then the stream is turned off (its shard closes) and on (a new stream).
    await startPoller();
    await put('before');
    await eventually(() => expect(delivered()).toEqual(['INSERT before']));
    await client.send(
      new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }),
    );
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      }),
    );

    // Act
    await put('after');

    // Assess: the change on the new stream arrives, and the old shard is recorded as read.
    await eventually(() => expect(delivered()).toEqual(['INSERT before', 'INSERT after']));
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(batches[1]?.[0]?.eventSourceARN).toBe(Table?.LatestStreamArn);
    expect(batches[0]?.[0]?.eventSourceARN).not.toBe(Table?.LatestStreamArn);
    // The old stream, read to its end, is forgotten: only the current stream's shard is checkpointed.
    await eventually(() => {
      const saved = JSON.parse(readFileSync(join(dataDir, 'streams', `${tableName}.json`), 'utf8'));
      expect(Object.values(saved.shards)).toEqual([
        { streamArn: Table?.LatestStreamArn, sequenceNumber: batches[1]?.[0]?.dynamodb?.SequenceNumber },
      ]);
    });
  });

  it('drops the checkpoints of a stream that is gone (table re-created) and reads the new one from its start', async () => {
    // Prepare: a checkpoint, then the table is deleted and made again (a reset database).
    await startPoller();
    await put('old');
    await eventually(() => expect(delivered()).toEqual(['INSERT old']));
    await stopAll();
    await client.send(new DeleteTableCommand({ TableName: tableName }));
    await ensureTable(client, MAIN_TABLE, tableName);
    await put('new');

    // Act
    batches = [];
    await startPoller();

    // Assess
    await eventually(() => expect(delivered()).toEqual(['INSERT new']));
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await eventually(() => {
      const saved = JSON.parse(readFileSync(join(dataDir, 'streams', `${tableName}.json`), 'utf8'));
      expect(Object.values(saved.shards).map((shard) => (shard as { streamArn: string }).streamArn)).toEqual([
        Table?.LatestStreamArn,
      ]);
    });
  });

  it('refuses to start on a table without a stream', async () => {
    // Prepare
    tableName = `${prefix}rate-limits-${tableCount}`;
    await ensureTable(client, RATE_LIMITS_TABLE, tableName);

    // Act / Assess
    await expect(startPoller()).rejects.toBeInstanceOf(StreamNotEnabledError);
  });
});
