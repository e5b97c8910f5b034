import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { makeDynamoClient } from '../../../shared/adapters/dynamodb/client.js';
import { type Logger, silentLogger } from '../../../shared/ports/logger.js';
import { readJsonFile, StateFileError, writeJsonAtomicAsync } from './json-file.js';
import { failureFields, makePollLoop } from './poll-loop.js';
import {
  compareSequenceNumbers,
  firstFailedIndex,
  readableShards,
  type ShardProgress,
  type StreamBatchResult,
  toLambdaRecord,
} from './stream-records.js';

/** The Lambda function a DynamoDB event source mapping (with ReportBatchItemFailures) would invoke. */
export type StreamBatchHandler = (event: DynamoDBStreamEvent) => Promise<StreamBatchResult>;

export interface StreamPollerOptions {
  /** DynamoDB Local; its Streams API answers on the same endpoint. */
  endpoint: string;
  /** The host's region: the clients' and the events' `awsRegion`. */
  region: string;
  tableName: string;
  /** JSON file of the last processed sequence number per shard (under the host's data folder). */
  checkpointFile: string;
  handler: StreamBatchHandler;
  /**
   * The event source mapping's filter criteria: a record it refuses is passed over (and, with the
   * next batch, checkpointed) without invoking the handler, as Lambda drops it. Default: every record.
   */
  accepts?: (record: _Record) => boolean;
  /** Records per invocation at most (BatchSize), 1–1,000 (GetRecords' own limit). Default 100. */
  batchSize?: number;
  /** Sleep between two polls that found nothing. Default 250 ms (Lambda polls a shard 4 times a second). */
  pollIntervalMs?: number;
  /** How often the stream is described again for new shards (rollover, a re-created stream). Default 5 s. */
  discoveryIntervalMs?: number;
  /** Retries of a failing record after its first attempt (MaximumRetryAttempts); then it is skipped. Default 3. */
  maxRetries?: number;
  /** Wait before a retry. Default 1 s. */
  retryDelayMs?: number;
  /** Where warnings go (a handler that threw, a record skipped); nowhere by default. */
  logger?: Logger;
}

/**
 * An in-process stand-in for the Lambda event source mapping of a DynamoDB stream, for the local
 * host: reads the table's stream on DynamoDB Local and hands the changes, in order, to the same
 * handler Lambda would invoke, with the same DynamoDBStreamEvent.
 */
export interface StreamPoller {
  /**
   * Reads the checkpoint file and the table's stream, then starts polling. Rejects (fails fast) when
   * the table does not exist, has no stream, or the checkpoint file is not ours.
   */
  start(): Promise<void>;
  /** Stops polling; resolves once the batch being handled (if any) is finished and checkpointed. */
  stop(): Promise<void>;
}

/** The table has no stream to read: its definition lacks `stream`, or the stream was turned off. */
export class StreamNotEnabledError extends Error {
  override readonly name = 'StreamNotEnabledError';
  constructor(readonly tableName: string) {
    super(`Table ${tableName} has no enabled DynamoDB stream.`);
  }
}

interface ShardState extends ShardProgress {
  streamArn: string;
  /** Sequence number of the last record handled (or skipped): a restart resumes after it. */
  checkpoint?: string;
  /** undefined: none yet; null: the shard is closed and has been read to its end. */
  iterator?: string | null;
  /** Records fetched but not yet handled, in order. */
  buffer: _Record[];
  /** The last record fetched: where a new iterator must start (after it). */
  fetchedThrough?: string;
  /** The record that keeps failing, and how many times it has been delivered. */
  failingSequenceNumber?: string;
  attempts: number;
  retryAt: number;
}

interface CheckpointFile {
  version: 1;
  tableName: string;
  shards: Record<string, { streamArn: string; sequenceNumber?: string; finished?: boolean }>;
}

function parseCheckpoints(path: string, raw: unknown): Map<string, ShardState> {
  const shards = new Map<string, ShardState>();
  if (raw === undefined) return shards;
  const file = raw as Partial<CheckpointFile> | null;
  if (file?.version !== 1 || typeof file.shards !== 'object' || file.shards === null) {
    throw new StateFileError(path, { cause: new Error('expected { version: 1, shards: {...} }') });
  }
  for (const [shardId, saved] of Object.entries(file.shards)) {
    if (typeof saved?.streamArn !== 'string') {
      throw new StateFileError(path, { cause: new Error(`shard ${shardId} has no streamArn`) });
    }
    shards.set(shardId, {
      shardId,
      streamArn: saved.streamArn,
      ...(saved.sequenceNumber !== undefined && { checkpoint: saved.sequenceNumber }),
      finished: saved.finished === true,
      buffer: [],
      attempts: 0,
      retryAt: 0,
    });
  }
  return shards;
}

export function makeStreamPoller(options: StreamPollerOptions): StreamPoller {
  const batchSize = options.batchSize ?? 100;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000) {
    throw new RangeError(`batchSize must be an integer from 1 to 1000, got ${batchSize}.`);
  }
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const discoveryIntervalMs = options.discoveryIntervalMs ?? 5000;
  const maxRetries = options.maxRetries ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  // Made by start(), destroyed by stop(): a stopped poller can be started again.
  let clients: { streams: DynamoDBStreamsClient; dynamodb: DynamoDBClient } | undefined;
  const connected = () => {
    if (!clients) throw new Error(`The stream poller of ${options.tableName} is not started.`);
    return clients;
  };

  let shards = new Map<string, ShardState>();
  /** The table's current stream; shards of older ones are read to their end first. */
  let currentStreamArn: string | undefined;
  let lastDiscovery = Number.NEGATIVE_INFINITY;
  const log = (options.logger ?? silentLogger).with({ streamOf: options.tableName });

  /**
   * Awaited before the next batch, as before, but without blocking the process: a synchronous
   * flush after every batch held the whole local host (API, workers) for the disk's time.
   */
  const saveCheckpoints = async () => {
    const saved: CheckpointFile['shards'] = {};
    for (const shard of shards.values()) {
      saved[shard.shardId] = {
        streamArn: shard.streamArn,
        ...(shard.checkpoint !== undefined && { sequenceNumber: shard.checkpoint }),
        ...(shard.finished && { finished: true }),
      };
    }
    await writeJsonAtomicAsync(options.checkpointFile, {
      version: 1,
      tableName: options.tableName,
      shards: saved,
    } satisfies CheckpointFile);
  };

  /** The table's enabled stream, or undefined while it is turned off. */
  async function latestStreamArn(): Promise<string | undefined> {
    const { Table } = await connected().dynamodb.send(
      new DescribeTableCommand({ TableName: options.tableName }),
    );
    return Table?.StreamSpecification?.StreamEnabled === true ? Table.LatestStreamArn : undefined;
  }

  async function describeShards(streamArn: string): Promise<Shard[]> {
    const all: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await connected().streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      all.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    return all;
  }

  /**
   * Learns the shards: of the table's current stream, and of any older stream (a stream turned off
   * and on again gets a new ARN) whose shards are not yet read to their end. Forgets the shards the
   * stream no longer lists (trimmed after 24 hours) and the fully read ones of older streams.
   */
  async function discover() {
    lastDiscovery = Date.now();
    const latest = await latestStreamArn();
    currentStreamArn = latest;
    const streamArns = new Set(latest ? [latest] : []);
    for (const shard of shards.values()) if (!shard.finished) streamArns.add(shard.streamArn);
    let changed = false;
    for (const streamArn of streamArns) {
      let listed: Shard[];
      try {
        listed = await describeShards(streamArn);
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException) || streamArn === latest) throw error;
        log.warn('stream poller: a stream is gone; its unread records are lost', { streamArn });
        listed = [];
      }
      const ids = new Set(listed.map((shard) => shard.ShardId));
      for (const shard of listed) {
        if (!shard.ShardId) continue;
        const known = shards.get(shard.ShardId);
        if (known) {
          if (shard.ParentShardId) known.parentShardId = shard.ParentShardId;
          continue;
        }
        shards.set(shard.ShardId, {
          shardId: shard.ShardId,
          ...(shard.ParentShardId && { parentShardId: shard.ParentShardId }),
          streamArn,
          finished: false,
          buffer: [],
          attempts: 0,
          retryAt: 0,
        });
        changed = true;
      }
      for (const shard of [...shards.values()]) {
        if (shard.streamArn === streamArn && !ids.has(shard.shardId)) {
          shards.delete(shard.shardId);
          changed = true;
        }
      }
    }
    for (const shard of [...shards.values()]) {
      if (!streamArns.has(shard.streamArn)) {
        shards.delete(shard.shardId);
        changed = true;
      }
    }
    if (changed) await saveCheckpoints();
  }

  /** A new iterator: after the last record fetched (or handled), else from the oldest record kept. */
  async function newIterator(shard: ShardState): Promise<string | undefined> {
    const after = shard.fetchedThrough ?? shard.checkpoint;
    if (after !== undefined) {
      try {
        const { ShardIterator } = await connected().streams.send(
          new GetShardIteratorCommand({
            StreamArn: shard.streamArn,
            ShardId: shard.shardId,
            ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
            SequenceNumber: after,
          }),
        );
        return ShardIterator;
      } catch (error) {
        // The record is gone (trimmed; DynamoDB Local answers InternalFailure): read from the oldest
        // record left, and let fetch() drop the ones at or before the checkpoint.
        if (error instanceof ResourceNotFoundException) throw error;
        log.warn('stream poller: cannot resume a shard; reading it from its oldest record', {
          shardId: shard.shardId,
          after,
          error,
        });
      }
    }
    const { ShardIterator } = await connected().streams.send(
      new GetShardIteratorCommand({
        StreamArn: shard.streamArn,
        ShardId: shard.shardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
    );
    return ShardIterator;
  }

  async function fetch(shard: ShardState) {
    if (shard.iterator === undefined) shard.iterator = (await newIterator(shard)) ?? null;
    if (shard.iterator === null) return;
    let response: GetRecordsCommandOutput;
    try {
      response = await connected().streams.send(
        new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: batchSize }),
      );
    } catch (error) {
      if (error instanceof ExpiredIteratorException) {
        // Iterators last 15 minutes (a handler that long, a laptop asleep): get a new one next time.
        shard.iterator = undefined;
        return;
      }
      if (error instanceof TrimmedDataAccessException) {
        // DynamoDB Local: a TRIM_HORIZON iterator taken while the shard was empty points at the next
        // sequence number of the whole database; once another table's write takes that number, the
        // iterator can never be read. A new one, taken now that the shard has records, can; records
        // at or before the checkpoint are still dropped by the filter below.
        shard.iterator = undefined;
        return;
      }
      // Anything else (DynamoDB Local unreachable, or restarted and no longer knowing the
      // iterator): resume from the checkpoint with a new iterator once it answers again.
      shard.iterator = undefined;
      throw error;
    }
    const after = shard.fetchedThrough ?? shard.checkpoint;
    for (const record of response.Records ?? []) {
      const sequenceNumber = record.dynamodb?.SequenceNumber;
      if (sequenceNumber === undefined) continue;
      if (after !== undefined && compareSequenceNumbers(sequenceNumber, after) <= 0) continue;
      shard.fetchedThrough = sequenceNumber;
      if (options.accepts && !options.accepts(record)) continue;
      shard.buffer.push(record);
    }
    shard.iterator = response.NextShardIterator ?? null;
  }

  const sequenceNumberOf = (record: _Record) => record.dynamodb?.SequenceNumber as string;

  /** Hands the next batch of one shard to the handler. True when it did something. */
  async function pump(shard: ShardState): Promise<boolean> {
    if (Date.now() < shard.retryAt) return false;
    if (shard.buffer.length < batchSize && shard.iterator !== null) await fetch(shard);
    if (shard.buffer.length === 0) {
      if (shard.iterator !== null) return false;
      // Closed and read to its end: its children (found by the next discovery) may start.
      shard.finished = true;
      await saveCheckpoints();
      lastDiscovery = Number.NEGATIVE_INFINITY;
      return true;
    }

    const batch = shard.buffer.slice(0, batchSize);
    const sequenceNumbers = batch.map(sequenceNumberOf);
    let failedAt: number;
    try {
      const response = await options.handler({
        Records: batch.map((record) =>
          toLambdaRecord(record, { streamArn: shard.streamArn, region: options.region }),
        ),
      });
      failedAt = firstFailedIndex(response, sequenceNumbers);
    } catch (error) {
      log.warn('stream poller: handler threw; the batch is retried', {
        shardId: shard.shardId,
        records: batch.length,
        error,
      });
      failedAt = 0;
    }

    const handled = failedAt === -1 ? batch.length : failedAt;
    if (handled > 0) {
      shard.buffer.splice(0, handled);
      shard.checkpoint = sequenceNumbers[handled - 1];
    }
    if (failedAt === -1) {
      shard.failingSequenceNumber = undefined;
      shard.attempts = 0;
      await saveCheckpoints();
      return true;
    }

    const failing = sequenceNumbers[failedAt] as string;
    shard.attempts = shard.failingSequenceNumber === failing ? shard.attempts + 1 : 1;
    shard.failingSequenceNumber = failing;
    if (shard.attempts > maxRetries) {
      const record = shard.buffer.shift();
      log.warn('stream poller: skipping a record after its last failed delivery', {
        sequenceNumber: failing,
        eventName: record?.eventName,
        shardId: shard.shardId,
        attempts: shard.attempts,
      });
      shard.checkpoint = failing;
      shard.failingSequenceNumber = undefined;
      shard.attempts = 0;
    } else {
      shard.retryAt = Date.now() + retryDelayMs;
    }
    if (handled > 0 || shard.attempts === 0) await saveCheckpoints();
    return handled > 0 || shard.attempts === 0;
  }

  async function step(): Promise<boolean> {
    if (Date.now() - lastDiscovery >= discoveryIntervalMs) {
      try {
        await discover();
      } catch (error) {
        log.warn('stream poller: describing the stream failed; reading the shards already known', { error });
      }
    }
    let busy = false;
    const unfinished = [...shards.values()].filter((shard) => !shard.finished);
    // An older stream (turned off, then on again) is read to its end before the current one starts,
    // so its changes come first, as they happened.
    const older = unfinished.filter((shard) => shard.streamArn !== currentStreamArn);
    // One shard after the other: on DynamoDB Local a stream has one open shard at a time.
    for (const shard of readableShards(older.length > 0 ? older : [...shards.values()])) {
      if (!loop.running) break;
      if (await pump(shard)) busy = true;
    }
    return busy;
  }

  const destroyClients = () => {
    clients?.streams.destroy();
    clients?.dynamodb.destroy();
    clients = undefined;
  };

  const loop = makePollLoop({
    step,
    idleDelayMs: () => pollIntervalMs,
    onError: (error) =>
      log.warn('stream poller: polling failed; backing off until it recovers', failureFields(error)),
    onRecovered: (failedRounds) => log.info('stream poller: polling recovered', { failedRounds }),
  });

  return {
    async start() {
      if (loop.running) return;
      shards = parseCheckpoints(options.checkpointFile, readJsonFile(options.checkpointFile));
      const connection = { region: options.region, endpoint: options.endpoint };
      // DynamoDB Local accepts any credentials; fixed ones keep it from reading the machine's.
      const streams = new DynamoDBStreamsClient({
        ...connection,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      // As makeDynamoClient: the SDK's logger middleware filters every record batch read for a
      // logger that discards it (1 % of the local host's CPU under bench/throughput.ts).
      streams.middlewareStack.remove('loggerMiddleware');
      clients = { streams, dynamodb: makeDynamoClient(connection) };
      try {
        await discover();
        if (!currentStreamArn) throw new StreamNotEnabledError(options.tableName);
      } catch (error) {
        destroyClients();
        throw error;
      }
      loop.start();
    },
    async stop() {
      await loop.stop();
      destroyClients();
    },
  };
}
