import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_CONCURRENCY,
  type LocalQueue,
  makeLocalQueue,
} from '../../../infra/local/stand-ins/local-queue.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import { deferred, eventually, pause } from '../../integration/stand-ins/eventually.js';

interface Job {
  id: string;
}

/**
 * A handler whose batches stay open until the test releases them, counting how many run at once.
 * The poll loop runs on real (ms) timers; visibility follows a clock that never moves.
 */
function heldHandler() {
  const held = new Map<string, () => void>();
  let running = 0;
  let mostAtOnce = 0;
  const started: string[] = [];
  const handler = async (event: SQSEvent) => {
    const id = event.Records.map((record) => (JSON.parse(record.body) as Job).id).join(',');
    started.push(id);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    const release = deferred();
    held.set(id, () => release.resolve());
    await release.promise;
    running -= 1;
    return undefined;
  };
  return {
    handler,
    started,
    release: (id: string) => held.get(id)?.(),
    releaseAll: () => {
      for (const release of held.values()) release();
    },
    get running() {
      return running;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
  };
}

describe('local queue: batches at once, as Lambda’s event source mapping runs them', () => {
  const queues: LocalQueue<Job>[] = [];
  const makeQueue = () => {
    const queue = makeLocalQueue<Job>({
      name: 'delivery',
      visibilityTimeoutMs: 30_000,
      maxReceiveCount: 3,
      clock: fixedClock(Date.parse('2030-01-01T00:00:00Z')),
    });
    queues.push(queue);
    return queue;
  };
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.stop();
  });

  it('never runs more than maxConcurrency batches; each one that ends lets exactly one more start', async () => {
    // Prepare: ten messages of one record per batch, three at once.
    const queue = makeQueue();
    const handler = heldHandler();
    for (let i = 1; i <= 10; i++) await queue.send({ id: String(i) });

    // Act
    queue.start(handler.handler, { batchSize: 1, maxConcurrency: 3, pollIntervalMs: 2 });

    // Assess: three start, and no more however long the queue polls.
    await eventually(() => expect(handler.started).toEqual(['1', '2', '3']));
    await pause(30);
    expect(handler.started).toHaveLength(3);
    expect(queue.batchesInFlight()).toBe(3);
    handler.release('2');
    await eventually(() => expect(handler.started).toEqual(['1', '2', '3', '4']));
    await pause(20);
    expect(handler.started).toHaveLength(4);

    // Then the rest, never more than three at once.
    await eventually(() => {
      handler.releaseAll();
      expect(queue.size()).toBe(0);
    });
    expect(handler.mostAtOnce).toBe(3);
    expect(queue.batchesInFlight()).toBe(0);
  });

  it('a batch that never ends holds up only its own messages', async () => {
    // Prepare: the first batch hangs.
    const queue = makeQueue();
    const handled: string[] = [];
    const hang = deferred();
    queue.start(
      async (event) => {
        const id = (JSON.parse(event.Records[0]?.body ?? '{}') as Job).id;
        if (id === 'slow') await hang.promise;
        handled.push(id);
        return undefined;
      },
      { batchSize: 1, pollIntervalMs: 2 },
    );

    // Act
    await queue.send({ id: 'slow' });
    for (let i = 1; i <= 5; i++) await queue.send({ id: `fast-${i}` });

    // Assess
    await eventually(() => expect(handled).toEqual(['fast-1', 'fast-2', 'fast-3', 'fast-4', 'fast-5']));
    expect(queue.size()).toBe(1);
    expect(queue.batchesInFlight()).toBe(1);
    hang.resolve();
    await eventually(() => expect(queue.size()).toBe(0));
  });

  it('stop() waits for every batch under way, then settles each', async () => {
    // Prepare: two batches held.
    const queue = makeQueue();
    const handler = heldHandler();
    queue.start(handler.handler, { batchSize: 1, pollIntervalMs: 2 });
    await queue.send({ id: 'a' });
    await queue.send({ id: 'b' });
    await eventually(() => expect(handler.running).toBe(2));

    // Act
    let stopped = false;
    const stopping = queue.stop().then(() => {
      stopped = true;
    });
    handler.release('a');
    await pause(20);
    const stoppedWithOneLeft = stopped;
    handler.release('b');
    await stopping;

    // Assess
    expect(stoppedWithOneLeft).toBe(false);
    expect(queue.size()).toBe(0);
  });

  it('defaults to ten at once', async () => {
    const queue = makeQueue();
    const handler = heldHandler();
    for (let i = 1; i <= 12; i++) await queue.send({ id: String(i) });
    queue.start(handler.handler, { batchSize: 1, pollIntervalMs: 2 });
    await eventually(() => expect(handler.started).toHaveLength(DEFAULT_MAX_CONCURRENCY));
    await pause(20);
    expect(DEFAULT_MAX_CONCURRENCY).toBe(10);
    expect(handler.started).toHaveLength(10);
    handler.releaseAll();
    await eventually(() => expect(handler.started).toHaveLength(12));
    handler.releaseAll();
  });

  it.each([1, 1001, 2.5])('refuses maxConcurrency %s, as Lambda would', (maxConcurrency) => {
    const queue = makeQueue();
    expect(() => queue.start(async () => undefined, { batchSize: 1, maxConcurrency })).toThrow(RangeError);
  });
});
