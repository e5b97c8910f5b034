import { createHash, randomUUID } from 'node:crypto';
import type { SQSEvent, SQSHandler, SQSRecord } from 'aws-lambda';
import { type Clock, systemClock } from '../../../shared/ports/clock.js';
import { type Logger, silentLogger } from '../../../shared/ports/logger.js';
import type { MessageQueue } from '../../../shared/ports/queues.js';
import { failureFields, makePollLoop, type PollLoop } from './poll-loop.js';
import { type JournaledMessage, openQueueJournal } from './queue-journal.js';

/** SQS's own limit for a per-message delay (15 minutes). */
const MAX_DELAY_SECONDS = 900;
/**
 * Batches handled at once when start() is not told otherwise. Lambda's event source mapping runs
 * up to 1,000 at once (its MaximumConcurrency setting takes 2 to 1,000); ten keep one machine
 * responsive while no slow call holds up the rest.
 */
export const DEFAULT_MAX_CONCURRENCY = 10;
/** The range Lambda accepts for an event source mapping's MaximumConcurrency. */
const MIN_CONCURRENCY = 2;
const MAX_CONCURRENCY = 1000;

/** What an SQS handler may resolve to: a partial batch response, or nothing (all succeeded). */
export type SqsBatchResult = Awaited<ReturnType<SQSHandler>>;

/** The Lambda function an SQS event source mapping would invoke. */
export type SqsBatchHandler = (event: SQSEvent) => Promise<SqsBatchResult>;

export interface LocalQueueOptions<T> {
  /** Names the queue in its ARN (`arn:aws:sqs:local:000000000000:<name>`) and in its log lines. */
  name: string;
  /** How long a received message stays hidden before it is delivered again, unless deleted. */
  visibilityTimeoutMs: number;
  /** Deliveries a message gets; the receive after the last one moves it to the dead-letter queue. */
  maxReceiveCount: number;
  /**
   * Where a message goes after maxReceiveCount deliveries (the redrive policy). Another LocalQueue,
   * or any sink. Without one, such a message is dropped with a warning (still counted).
   */
  deadLetter?: MessageQueue<T>;
  /** Decides delays and visibility; the poll loop itself sleeps with real timers. */
  clock?: Clock;
  /** Where warnings go (a handler that threw, a dropped message); nowhere by default. */
  logger?: Logger;
  /**
   * A file that keeps the messages across restarts (queue-journal.ts): a message sent is on disk
   * before send() resolves, and one not yet deleted when the process stops, crashes or is killed
   * is handed over again by the next process, its delay and receive count kept. None: in memory.
   */
  journalFile?: string;
  /** Rewrites the journal once it has this many lines more than live messages (default 10,000). */
  journalCompactAfterLines?: number;
}

export interface LocalQueueStartOptions {
  /** Records per invocation at most (the event source mapping's BatchSize), 1–10,000. */
  batchSize: number;
  /** Sleep between two polls that found nothing to deliver. Default 100 ms. */
  pollIntervalMs?: number;
  /**
   * Batches handled at once at most (the mapping's MaximumConcurrency), 2–1,000. Default
   * DEFAULT_MAX_CONCURRENCY. The queue keeps polling while batches run, so one slow batch holds
   * up only its own messages.
   */
  maxConcurrency?: number;
}

/**
 * An in-process stand-in for a standard SQS queue and the Lambda event source mapping that drains
 * it, for the local host.
 *
 * With a journal file (the local host gives each queue one in its data folder) no message is lost
 * when the process stops or dies: the next process hands over every message not yet deleted. In
 * memory only (tests), stopping loses those not yet delivered.
 */
export interface LocalQueue<T> extends MessageQueue<T> {
  readonly name: string;
  readonly arn: string;
  /**
   * Starts delivering to the handler, as an event source mapping with ReportBatchItemFailures:
   * up to maxConcurrency batches at once.
   */
  start(handler: SqsBatchHandler, options: LocalQueueStartOptions): void;
  /** Stops polling; resolves once the batches being handled (if any) have finished and been settled. */
  stop(): Promise<void>;
  /** Batches handed to the handler and not yet settled. */
  batchesInFlight(): number;
  /** Messages held: waiting, delayed or in flight (ApproximateNumberOfMessages + …Delayed + …NotVisible). */
  size(): number;
  /** Messages received and neither deleted nor visible again yet (ApproximateNumberOfMessagesNotVisible). */
  inFlight(): number;
  /** Messages this queue has moved to its dead-letter queue (or dropped, without one). */
  deadLetterCount(): number;
}

interface StoredMessage extends JournaledMessage {
  /** Before it: delayed or in flight. */
  visibleAt: number;
  receiptHandle?: string;
}

/** The `DelaySeconds` SQS would accept, in ms: fractions round up, out of range throws like SQS. */
function delayMs(delaySeconds: number | undefined): number {
  if (delaySeconds === undefined) return 0;
  if (!Number.isFinite(delaySeconds) || delaySeconds < 0 || delaySeconds > MAX_DELAY_SECONDS) {
    throw new RangeError(`delaySeconds must be between 0 and ${MAX_DELAY_SECONDS}, got ${delaySeconds}.`);
  }
  return Math.ceil(delaySeconds) * 1000;
}

function requireInteger(name: string, value: number, min = 1, max = Number.MAX_SAFE_INTEGER) {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}.`);
  }
}

/**
 * The ids of the records to keep, from the handler's answer, as Lambda reads it: no answer (or an
 * empty list) means all succeeded; an id that names no record of the batch fails the whole batch.
 */
export function failedMessageIds(response: SqsBatchResult, batch: readonly SQSRecord[]): Set<string> {
  const ids = new Set(batch.map((record) => record.messageId));
  const failures = response?.batchItemFailures ?? [];
  const failed = new Set<string>();
  for (const failure of failures) {
    if (!failure || typeof failure.itemIdentifier !== 'string' || !ids.has(failure.itemIdentifier)) {
      return ids;
    }
    failed.add(failure.itemIdentifier);
  }
  return failed;
}

export function makeLocalQueue<T>(options: LocalQueueOptions<T>): LocalQueue<T> {
  if (!options.name) throw new RangeError('A local queue needs a name.');
  requireInteger('maxReceiveCount', options.maxReceiveCount);
  if (!Number.isFinite(options.visibilityTimeoutMs) || options.visibilityTimeoutMs < 0) {
    throw new RangeError(`visibilityTimeoutMs must be 0 or more, got ${options.visibilityTimeoutMs}.`);
  }
  const clock = options.clock ?? systemClock;
  const arn = `arn:aws:sqs:local:000000000000:${options.name}`;
  /** In send order, which is also the order they are offered in (SQS promises none). */
  const messages = new Map<string, StoredMessage>();
  const log = (options.logger ?? silentLogger).with({ queue: options.name });
  const journal = options.journalFile
    ? openQueueJournal({
        file: options.journalFile,
        now: clock.now(),
        snapshot: function* () {
          const now = clock.now();
          for (const { receiptHandle, ...message } of messages.values())
            yield { ...message, received: receiptHandle !== undefined && message.visibleAt > now };
        },
        onWriteError: (error) => log.error('local queue: writing its journal failed', { error }),
        ...(options.journalCompactAfterLines !== undefined && {
          compactAfterLines: options.journalCompactAfterLines,
        }),
      })
    : undefined;
  for (const message of journal?.recovered ?? []) messages.set(message.messageId, message);
  if (journal && journal.recovered.length > 0)
    log.info('local queue: messages held before the restart are handed over again', {
      messages: journal.recovered.length,
    });
  let deadLettered = 0;
  let loop: PollLoop | undefined;
  /** Stopped with a journal: the file is closed, and nothing more can be sent. */
  let closed = false;
  /** The batches being handled; each settles its own messages when its handler returns. */
  const running = new Set<Promise<void>>();

  /** SQS's redrive: the receive after the last allowed one moves the message instead of delivering it. */
  async function moveToDeadLetter(message: StoredMessage) {
    messages.delete(message.messageId);
    journal?.deleted(message.messageId);
    deadLettered += 1;
    if (!options.deadLetter) {
      log.warn('local queue: message dropped after its last receive (no dead-letter queue)', {
        messageId: message.messageId,
        receiveCount: message.receiveCount,
      });
      return;
    }
    try {
      await options.deadLetter.send(JSON.parse(message.body) as T);
    } catch (error) {
      // Keep it rather than lose it; the next poll tries the move again.
      messages.set(message.messageId, message);
      journal?.received(message);
      deadLettered -= 1;
      log.warn('local queue: could not move a message to the dead-letter queue', {
        messageId: message.messageId,
        error,
      });
    }
  }

  function receive(message: StoredMessage, now: number): SQSRecord {
    message.receiveCount += 1;
    message.firstReceivedAt ??= now;
    message.receiptHandle = randomUUID();
    message.visibleAt = now + options.visibilityTimeoutMs;
    journal?.received(message);
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: '000000000000',
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
      },
      messageAttributes: {},
      md5OfBody: message.md5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: arn,
      awsRegion: 'local',
    };
  }

  /** Invokes the handler with one batch, then deletes what succeeded. Never rejects. */
  async function handleBatch(handler: SqsBatchHandler, batch: SQSRecord[]): Promise<void> {
    let failed: Set<string>;
    try {
      failed = failedMessageIds(await handler({ Records: batch }), batch);
    } catch (error) {
      // Lambda: an invocation error leaves every message of the batch for redelivery.
      log.warn('local queue: handler threw; the batch is delivered again after the visibility timeout', {
        messages: batch.length,
        error,
      });
      return;
    }
    for (const record of batch) {
      if (failed.has(record.messageId)) continue;
      // DeleteMessage with this receipt: a message received again since (its visibility ran out
      // while the handler worked) has a newer receipt and is left alone.
      if (messages.get(record.messageId)?.receiptHandle === record.receiptHandle) {
        messages.delete(record.messageId);
        journal?.deleted(record.messageId);
      }
    }
  }

  /**
   * One poll: when fewer than maxConcurrency batches run, receive up to batchSize visible
   * messages and start handling them without waiting; at the limit, wait for a batch to finish.
   */
  async function pollOnce(
    handler: SqsBatchHandler,
    batchSize: number,
    maxConcurrency: number,
  ): Promise<boolean> {
    if (running.size >= maxConcurrency) {
      await Promise.race(running);
      return true;
    }
    const now = clock.now();
    const batch: SQSRecord[] = [];
    let moved = false;
    for (const message of [...messages.values()]) {
      if (batch.length >= batchSize) break;
      if (message.visibleAt > now) continue;
      if (message.receiveCount >= options.maxReceiveCount) {
        await moveToDeadLetter(message);
        moved = true;
        continue;
      }
      batch.push(receive(message, now));
    }
    if (batch.length === 0) return moved;
    const handling = handleBatch(handler, batch).finally(() => running.delete(handling));
    running.add(handling);
    return true;
  }

  return {
    name: options.name,
    arn,

    async send(message, sendOptions) {
      const wait = delayMs(sendOptions?.delaySeconds);
      const body = JSON.stringify(message);
      if (body === undefined) throw new TypeError('A queue message must be JSON-serializable.');
      if (closed) throw new Error(`Local queue ${options.name} is stopped.`);
      const now = clock.now();
      const stored: StoredMessage = {
        messageId: randomUUID(),
        body,
        md5OfBody: createHash('md5').update(body).digest('hex'),
        sentAt: now,
        visibleAt: now + wait,
        receiveCount: 0,
      };
      // On disk first: a send that resolved is never lost, whatever happens to this process next.
      await journal?.sent(stored);
      messages.set(stored.messageId, stored);
      if (wait === 0) loop?.wake();
    },

    start(handler, startOptions) {
      if (loop?.running) throw new Error(`Local queue ${options.name} is already started.`);
      requireInteger('batchSize', startOptions.batchSize, 1, 10_000);
      const maxConcurrency = startOptions.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
      requireInteger('maxConcurrency', maxConcurrency, MIN_CONCURRENCY, MAX_CONCURRENCY);
      const pollIntervalMs = startOptions.pollIntervalMs ?? 100;
      loop = makePollLoop({
        step: () => pollOnce(handler, startOptions.batchSize, maxConcurrency),
        idleDelayMs: () => pollIntervalMs,
        onError: (error) =>
          log.warn('local queue: polling failed; backing off until it recovers', failureFields(error)),
        onRecovered: (failedRounds) => log.info('local queue: polling recovered', { failedRounds }),
      });
      loop.start();
    },

    async stop() {
      await loop?.stop();
      await Promise.all([...running]);
      if (journal && !closed) {
        closed = true;
        await journal.close();
      }
    },

    batchesInFlight: () => running.size,

    size: () => messages.size,

    inFlight() {
      const now = clock.now();
      let count = 0;
      for (const message of messages.values()) {
        if (message.receiptHandle !== undefined && message.visibleAt > now) count += 1;
      }
      return count;
    },

    deadLetterCount: () => deadLettered,
  };
}
