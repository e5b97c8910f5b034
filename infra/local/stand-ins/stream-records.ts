import type { _Record, AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb-streams';
import type {
  DynamoDBRecord,
  DynamoDBStreamHandler,
  AttributeValue as LambdaAttributeValue,
  StreamRecord,
} from 'aws-lambda';

/** What a stream handler may resolve to: a partial batch response, or nothing (all succeeded). */
export type StreamBatchResult = Awaited<ReturnType<DynamoDBStreamHandler>>;

/**
 * The pure half of the stream poller: turning DynamoDB Streams API records into the records of the
 * event Lambda hands a stream consumer, and reading the consumer's answer as Lambda does.
 */

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/**
 * One attribute value in the wire format Lambda's event carries: as the API's JSON, so binary
 * values are base64 strings (the SDK has already decoded them to bytes, Lambda never does).
 */
export function toLambdaAttributeValue(value: SdkAttributeValue): LambdaAttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.SS !== undefined) return { SS: [...value.SS] };
  if (value.NS !== undefined) return { NS: [...value.NS] };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaAttributeValue) };
  if (value.M !== undefined) return { M: toLambdaAttributeMap(value.M) };
  throw new TypeError(`Unknown attribute value type: ${Object.keys(value).join(', ')}`);
}

export function toLambdaAttributeMap(
  map: Record<string, SdkAttributeValue>,
): Record<string, LambdaAttributeValue> {
  return Object.fromEntries(
    Object.entries(map).map(([name, value]) => [name, toLambdaAttributeValue(value)]),
  );
}

/** A Streams API record as the record of a Lambda DynamoDBStreamEvent. */
export function toLambdaRecord(
  record: _Record,
  context: { streamArn: string; region: string },
): DynamoDBRecord {
  const change = record.dynamodb ?? {};
  const dynamodb: StreamRecord = {
    ...(change.ApproximateCreationDateTime && {
      // Lambda gives epoch seconds; the SDK has parsed them into a Date.
      ApproximateCreationDateTime: change.ApproximateCreationDateTime.getTime() / 1000,
    }),
    ...(change.Keys && { Keys: toLambdaAttributeMap(change.Keys) }),
    ...(change.NewImage && { NewImage: toLambdaAttributeMap(change.NewImage) }),
    ...(change.OldImage && { OldImage: toLambdaAttributeMap(change.OldImage) }),
    ...(change.SequenceNumber !== undefined && { SequenceNumber: change.SequenceNumber }),
    ...(change.SizeBytes !== undefined && { SizeBytes: change.SizeBytes }),
    ...(change.StreamViewType !== undefined && { StreamViewType: change.StreamViewType }),
  };
  return {
    ...(record.eventID !== undefined && { eventID: record.eventID }),
    ...(record.eventName !== undefined && { eventName: record.eventName }),
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    // The host's region: DynamoDB Local reports "ddblocal" here, which no handler should see.
    awsRegion: context.region,
    dynamodb,
    eventSourceARN: context.streamArn,
    // TTL deletions: Lambda spells the fields in lower case.
    ...(record.userIdentity && {
      userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId },
    }),
  };
}

/**
 * Where the retry starts, as Lambda reads a ReportBatchItemFailures answer for a stream: -1 when
 * every record succeeded (no answer, or an empty list); else the index of the earliest failed
 * record, from which the rest of the batch is delivered again. An identifier that names no record
 * of the batch (missing, empty, unknown) fails the whole batch, so the retry starts at 0.
 */
export function firstFailedIndex(response: StreamBatchResult, sequenceNumbers: readonly string[]): number {
  const failures = response?.batchItemFailures ?? [];
  let first = -1;
  for (const failure of failures) {
    const index =
      typeof failure?.itemIdentifier === 'string' && failure.itemIdentifier !== ''
        ? sequenceNumbers.indexOf(failure.itemIdentifier)
        : -1;
    if (index === -1) return 0;
    if (first === -1 || index < first) first = index;
  }
  return first;
}

/** Stream sequence numbers are decimal strings of any width: compared as numbers, never as text. */
export function compareSequenceNumbers(a: string, b: string): number {
  const difference = BigInt(a) - BigInt(b);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

export interface ShardProgress {
  shardId: string;
  parentShardId?: string;
  finished: boolean;
}

/**
 * The shards that may be read now: unfinished ones whose parent is finished or unknown (trimmed
 * away, or never seen). As Lambda does, a child shard waits until its parent has been read to the
 * end, so the changes of one item are never handed over out of order across a shard split.
 */
export function readableShards<S extends ShardProgress>(shards: readonly S[]): S[] {
  const byId = new Map(shards.map((shard) => [shard.shardId, shard]));
  return shards.filter((shard) => {
    if (shard.finished) return false;
    const parent = shard.parentShardId === undefined ? undefined : byId.get(shard.parentShardId);
    return parent === undefined || parent.finished;
  });
}
