import { createHash } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LocalQueue, makeLocalQueue } from '../../../infra/local/stand-ins/local-queue.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';
import { deferred, eventually, pause } from './eventually.js';

interface Job {
  id: string;
}

const VISIBILITY_MS = 30_000;

describe('local SQS queue and its event source mapping', () => {
  // Delays and visibility follow this clock; the poll loop runs on real (ms) timers.
  const clock = fixedClock(Date.parse('2030-01-01T00:00:00Z'));
  const queues: LocalQueue<Job>[] = [];
  let batches: SQSRecord[][];
  let logger: ReturnType<typeof makeMemoryLogger>;

  const makeQueue = (options: { maxReceiveCount?: number; deadLetter?: LocalQueue<Job> } = {}) => {
    const queue = makeLocalQueue<Job>({
      name: 'delivery',
      visibilityTimeoutMs: VISIBILITY_MS,
      maxReceiveCount: options.maxReceiveCount ?? 3,
      ...(options.deadLetter && { deadLetter: options.deadLetter }),
      clock,
      logger,
    });
    queues.push(queue);
    return queue;
  };
  /** Starts the mapping with a handler that records each batch, then answers with `respond`. */
  const run = (
    queue: LocalQueue<Job>,
    respond: (event: SQSEvent) => Promise<SQSBatchResponse | undefined> = async () => undefined,
    batchSize = 10,
  ) =>
    queue.start(
      async (event) => {
        batches.push(event.Records);
        return respond(event);
      },
      { batchSize, pollIntervalMs: 2 },
    );
  const ids = (records: SQSRecord[] = []) => records.map((record) => (JSON.parse(record.body) as Job).id);
  const failAll = async (event: SQSEvent) => ({
    batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })),
  });

  beforeEach(() => {
    batches = [];
    logger = makeMemoryLogger();
  });
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.stop();
  });

  it('delivers a message as the SQS event Lambda receives, then deletes it', async () => {
    // Prepare
    const queue = makeQueue();
    run(queue);

    // Act
    await queue.send({ id: 'a' });

    // Assess
    await eventually(() => expect(queue.size()).toBe(0));
    expect(batches).toHaveLength(1);
    const record = batches[0]?.[0];
    expect(record).toEqual({
      messageId: expect.any(String),
      receiptHandle: expect.any(String),
      body: '{"id":"a"}',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(clock.now()),
        SenderId: expect.any(String),
        ApproximateFirstReceiveTimestamp: String(clock.now()),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update('{"id":"a"}').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:delivery',
      awsRegion: 'local',
    });
  });

  it('holds a delayed message until its delay has passed on the clock', async () => {
    // Prepare
    const queue = makeQueue();
    run(queue);

    // Act
    await queue.send({ id: 'later' }, { delaySeconds: 5 });
    await pause(20);

    // Assess
    expect(batches).toHaveLength(0);
    expect(queue.size()).toBe(1);
    expect(queue.inFlight()).toBe(0);
    clock.advance(5000);
    await eventually(() => expect(batches.map((batch) => ids(batch))).toEqual([['later']]));
  });

  it('refuses a delay SQS would refuse', async () => {
    const queue = makeQueue();
    await expect(queue.send({ id: 'x' }, { delaySeconds: 901 })).rejects.toThrow(RangeError);
    await expect(queue.send({ id: 'x' }, { delaySeconds: -1 })).rejects.toThrow(RangeError);
    expect(queue.size()).toBe(0);
  });

  it('delivers a failed message again only after the visibility timeout', async () => {
    // Prepare: the first delivery fails.
    const queue = makeQueue();
    run(queue, async (event) => (batches.length === 1 ? failAll(event) : undefined));

    // Act
    await queue.send({ id: 'a' });
    await eventually(() => expect(batches).toHaveLength(1));
    await pause(20);

    // Assess: hidden until the timeout, then delivered again with its receive count.
    expect(batches).toHaveLength(1);
    expect(queue.inFlight()).toBe(1);
    clock.advance(VISIBILITY_MS);
    await eventually(() => expect(queue.size()).toBe(0));
    expect(batches).toHaveLength(2);
    expect(batches[1]?.[0]?.messageId).toBe(batches[0]?.[0]?.messageId);
    expect(batches[1]?.[0]?.attributes.ApproximateReceiveCount).toBe('2');
  });

  it('deletes the records a batch succeeded on and keeps only its batchItemFailures', async () => {
    // Prepare: three messages in one batch; "b" fails the first time.
    const queue = makeQueue();
    for (const id of ['a', 'b', 'c']) await queue.send({ id });
    run(queue, async (event) => {
      const b = event.Records.find((record) => record.body === '{"id":"b"}');
      return batches.length === 1 && b ? { batchItemFailures: [{ itemIdentifier: b.messageId }] } : undefined;
    });

    // Act
    await eventually(() => expect(queue.size()).toBe(1));
    clock.advance(VISIBILITY_MS);

    // Assess
    await eventually(() => expect(queue.size()).toBe(0));
    expect(batches.map((batch) => ids(batch))).toEqual([['a', 'b', 'c'], ['b']]);
  });

  it('keeps every record of a batch whose handler threw', async () => {
    // Prepare: the first invocation throws.
    const queue = makeQueue();
    for (const id of ['a', 'b']) await queue.send({ id });
    run(queue, async () => {
      if (batches.length === 1) throw new Error('boom');
      return undefined;
    });

    // Act
    await eventually(() => expect(batches).toHaveLength(1));
    await eventually(() => expect(queue.inFlight()).toBe(2));
    clock.advance(VISIBILITY_MS);

    // Assess
    await eventually(() => expect(queue.size()).toBe(0));
    expect(batches.map((batch) => ids(batch))).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(logger.entries).toContainEqual({
      level: 'warn',
      message: expect.stringContaining('handler threw'),
      fields: { queue: 'delivery', messages: 2, error: expect.objectContaining({ message: 'boom' }) },
    });
  });

  it('fails the whole batch when a batchItemFailure names no record of it', async () => {
    // Prepare
    const queue = makeQueue();
    for (const id of ['a', 'b']) await queue.send({ id });
    run(queue, async () =>
      batches.length === 1 ? { batchItemFailures: [{ itemIdentifier: '' }] } : undefined,
    );

    // Act
    await eventually(() => expect(batches).toHaveLength(1));
    clock.advance(VISIBILITY_MS);

    // Assess
    await eventually(() => expect(queue.size()).toBe(0));
    expect(batches.map((batch) => ids(batch))).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });

  it('moves a message to the dead-letter queue after maxReceiveCount receives', async () => {
    // Prepare: every delivery fails.
    const deadLetter = makeLocalQueue<Job>({
      name: 'delivery-dlq',
      visibilityTimeoutMs: 1000,
      maxReceiveCount: 1,
    });
    const queue = makeQueue({ maxReceiveCount: 2, deadLetter });
    run(queue, failAll);

    // Act
    await queue.send({ id: 'poison' });
    await eventually(() => expect(batches).toHaveLength(1));
    clock.advance(VISIBILITY_MS);
    await eventually(() => expect(batches).toHaveLength(2));
    clock.advance(VISIBILITY_MS);

    // Assess: two deliveries, then the next receive moves it, body unchanged.
    await eventually(() => expect(deadLetter.size()).toBe(1));
    expect(queue.size()).toBe(0);
    expect(queue.deadLetterCount()).toBe(1);
    expect(batches).toHaveLength(2);
    const moved: SQSRecord[] = [];
    deadLetter.start(
      async (event) => {
        moved.push(...event.Records);
      },
      { batchSize: 1, pollIntervalMs: 2 },
    );
    queues.push(deadLetter);
    await eventually(() => expect(ids(moved)).toEqual(['poison']));
  });

  it('hands over at most batchSize records per invocation', async () => {
    // Prepare: messages waiting before the mapping starts.
    const queue = makeQueue();
    for (const id of ['1', '2', '3', '4', '5']) await queue.send({ id });

    // Act
    run(queue, async () => undefined, 2);

    // Assess
    await eventually(() => expect(queue.size()).toBe(0));
    expect(batches.map((batch) => ids(batch))).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });

  it('stop() waits for the batch being handled, then settles it', async () => {
    // Prepare: a handler held mid-batch.
    const release = deferred();
    const queue = makeQueue();
    run(queue, async () => {
      await release.promise;
      return undefined;
    });
    await queue.send({ id: 'a' });
    await eventually(() => expect(batches).toHaveLength(1));

    // Act
    let stopped = false;
    const stopping = queue.stop().then(() => {
      stopped = true;
    });
    await pause(10);
    const stoppedWhileHandling = stopped;
    release.resolve();
    await stopping;

    // Assess
    expect(stoppedWhileHandling).toBe(false);
    expect(queue.size()).toBe(0);
  });
});
