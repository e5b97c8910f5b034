import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LocalQueue, makeLocalQueue } from '../../../infra/local/stand-ins/local-queue.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';
import { eventually, pause } from './eventually.js';

interface Job {
  id: string;
}

const VISIBILITY_MS = 30_000;

/**
 * A local queue with a journal file: what one process sent and did not delete, the next process on
 * the same file delivers. "A process" is a queue object; a crash is a queue dropped without stop(),
 * whose journal only has what was written before (nothing is flushed at a crash).
 */
describe('local queue journal', () => {
  const folder = mkdtempSync(join(tmpdir(), 'smcp-journal-'));
  const clock = fixedClock(Date.parse('2030-01-01T00:00:00Z'));
  const queues: LocalQueue<Job>[] = [];
  let file: string;
  let batches: SQSRecord[][];

  const makeQueue = (options: { journalCompactAfterLines?: number } = {}) => {
    const queue = makeLocalQueue<Job>({
      name: 'delivery',
      visibilityTimeoutMs: VISIBILITY_MS,
      maxReceiveCount: 3,
      clock,
      logger: makeMemoryLogger(),
      journalFile: file,
      ...options,
    });
    queues.push(queue);
    return queue;
  };
  const run = (
    queue: LocalQueue<Job>,
    respond: (event: SQSEvent) => Promise<SQSBatchResponse | undefined> = async () => undefined,
  ) =>
    queue.start(
      async (event) => {
        batches.push(event.Records);
        return respond(event);
      },
      { batchSize: 10, pollIntervalMs: 2 },
    );
  const delivered = () => batches.flat().map((record) => (JSON.parse(record.body) as Job).id);

  beforeEach(() => {
    file = join(folder, `${Math.random().toString(36).slice(2)}.jsonl`);
    batches = [];
  });
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.stop().catch(() => undefined);
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('hands every message sent and not deleted to the next process, even one never stopped (a crash)', async () => {
    // Prepare: three sent; the first crashes without stop(), after its sends resolved.
    const crashed = makeQueue();
    await crashed.send({ id: 'a' });
    await crashed.send({ id: 'b' });
    await crashed.send({ id: 'c' });

    // Act
    const next = makeQueue();
    run(next);

    // Assess: all three, once each, and the journal ends empty of live messages.
    await eventually(() => expect(delivered()).toHaveLength(3));
    expect(delivered().sort()).toEqual(['a', 'b', 'c']);
    await pause(20);
    expect(delivered()).toHaveLength(3);
    expect(next.size()).toBe(0);
  });

  it('does not hand over again a message that was deleted, and keeps the delay of one still waiting', async () => {
    // Prepare: one handled and deleted, one delayed five minutes.
    const first = makeQueue();
    run(first);
    await first.send({ id: 'done' });
    await eventually(() => expect(first.size()).toBe(0));
    await first.send({ id: 'later' }, { delaySeconds: 300 });
    await first.stop();
    batches = [];

    // Act
    const second = makeQueue();
    run(second);
    await pause(30);

    // Assess: nothing yet (the delay holds across the restart), then only the delayed one.
    expect(delivered()).toEqual([]);
    expect(second.size()).toBe(1);
    clock.advance(300_000);
    await eventually(() => expect(delivered()).toHaveLength(1));
    expect(delivered()).toEqual(['later']);
  });

  it('makes a message in flight when the process died visible at once, its receive count kept', async () => {
    // Prepare: received once (in flight for 30 s), never answered: the process dies mid-batch.
    const first = makeQueue();
    let release: (() => void) | undefined;
    run(first, () => new Promise((resolve) => (release = () => resolve(undefined))));
    await first.send({ id: 'held' });
    await eventually(() => expect(batches).toHaveLength(1));
    await pause(20);

    // Act: a new process on the same journal, the clock unchanged (the visibility has not run out).
    batches = [];
    const second = makeQueue();
    run(second);

    // Assess: delivered now, as its second receive.
    await eventually(() => expect(batches).toHaveLength(1));
    expect(batches[0]?.[0]?.attributes.ApproximateReceiveCount).toBe('2');
    release?.();
  });

  it('ignores a torn last line (the process died while writing it)', async () => {
    const first = makeQueue();
    await first.send({ id: 'whole' });
    appendFileSync(file, '{"op":"send","message":{"messageId":"x","bo');

    const second = makeQueue();
    run(second);

    await eventually(() => expect(delivered()).toHaveLength(1));
    expect(delivered()).toEqual(['whole']);
  });

  it('rewrites a long journal with the live messages only, and loses none doing so', async () => {
    // Prepare: a journal that compacts after 20 lines more than it holds.
    const first = makeQueue({ journalCompactAfterLines: 20 });
    run(first);
    for (let index = 0; index < 30; index++) await first.send({ id: `gone-${index}` });
    await eventually(() => expect(first.size()).toBe(0));
    await first.send({ id: 'kept' }, { delaySeconds: 60 });
    await pause(20);

    // Assess: the file is far shorter than the 90 lines written, and the next process has the live one.
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThan(30);
    await first.stop();
    batches = [];
    const second = makeQueue();
    run(second);
    clock.advance(60_000);
    await eventually(() => expect(delivered()).toHaveLength(1));
    expect(delivered()).toEqual(['kept']);
  });
});
