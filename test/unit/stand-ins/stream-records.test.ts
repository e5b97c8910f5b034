import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { describe, expect, it } from 'vitest';
import {
  compareSequenceNumbers,
  firstFailedIndex,
  readableShards,
  toLambdaAttributeValue,
  toLambdaRecord,
} from '../../../infra/local/stand-ins/stream-records.js';

const STREAM_ARN = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2030-01-01T00:00:00.000';

describe('toLambdaAttributeValue', () => {
  it('keeps scalar and set values as they are', () => {
    expect(toLambdaAttributeValue({ S: 'x' })).toEqual({ S: 'x' });
    expect(toLambdaAttributeValue({ N: '1.5' })).toEqual({ N: '1.5' });
    expect(toLambdaAttributeValue({ BOOL: false })).toEqual({ BOOL: false });
    expect(toLambdaAttributeValue({ NULL: true })).toEqual({ NULL: true });
    expect(toLambdaAttributeValue({ SS: ['a', 'b'] })).toEqual({ SS: ['a', 'b'] });
    expect(toLambdaAttributeValue({ NS: ['1'] })).toEqual({ NS: ['1'] });
  });

  it('writes binary values as base64, as in the event JSON, also inside lists and maps', () => {
    // Prepare
    const bytes = new Uint8Array([1, 2, 255]);

    // Act
    const value = toLambdaAttributeValue({
      M: { b: { B: bytes }, bs: { BS: [bytes] }, l: { L: [{ B: bytes }, { S: 's' }] } },
    });

    // Assess
    expect(value).toEqual({
      M: { b: { B: 'AQL/' }, bs: { BS: ['AQL/'] }, l: { L: [{ B: 'AQL/' }, { S: 's' }] } },
    });
  });
});

describe('toLambdaRecord', () => {
  const record: _Record = {
    eventID: 'e1',
    eventName: 'REMOVE',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'ddblocal',
    dynamodb: {
      ApproximateCreationDateTime: new Date('2030-01-01T00:01:00Z'),
      Keys: { pk: { S: 'p' } },
      OldImage: { pk: { S: 'p' }, n: { N: '1' } },
      SequenceNumber: '000000000000000000042',
      SizeBytes: 12,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    userIdentity: { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' },
  };

  it('gives the shape of a Lambda DynamoDB stream record', () => {
    // Act
    const converted = toLambdaRecord(record, { streamArn: STREAM_ARN, region: 'us-east-1' });

    // Assess
    expect(converted).toEqual({
      eventID: 'e1',
      eventName: 'REMOVE',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: STREAM_ARN,
      dynamodb: {
        ApproximateCreationDateTime: Date.parse('2030-01-01T00:01:00Z') / 1000,
        Keys: { pk: { S: 'p' } },
        OldImage: { pk: { S: 'p' }, n: { N: '1' } },
        SequenceNumber: '000000000000000000042',
        SizeBytes: 12,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
    });
  });

  it('leaves out the images and identity a record does not have', () => {
    const converted = toLambdaRecord(
      { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'p' } }, SequenceNumber: '1' } },
      { streamArn: STREAM_ARN, region: 'us-east-1' },
    );
    expect(converted.dynamodb).toEqual({ Keys: { pk: { S: 'p' } }, SequenceNumber: '1' });
    expect(converted).not.toHaveProperty('userIdentity');
  });
});

describe('firstFailedIndex', () => {
  const sequenceNumbers = ['10', '20', '30'];

  it('is -1 when the handler answers nothing or no failures', () => {
    expect(firstFailedIndex(undefined, sequenceNumbers)).toBe(-1);
    expect(firstFailedIndex({ batchItemFailures: [] }, sequenceNumbers)).toBe(-1);
  });

  it('is the earliest failed record, whatever the order of the failures', () => {
    expect(
      firstFailedIndex(
        { batchItemFailures: [{ itemIdentifier: '30' }, { itemIdentifier: '20' }] },
        sequenceNumbers,
      ),
    ).toBe(1);
  });

  it('fails the whole batch for an identifier that names no record of it', () => {
    expect(firstFailedIndex({ batchItemFailures: [{ itemIdentifier: '99' }] }, sequenceNumbers)).toBe(0);
    expect(firstFailedIndex({ batchItemFailures: [{ itemIdentifier: '' }] }, sequenceNumbers)).toBe(0);
    expect(
      firstFailedIndex(
        { batchItemFailures: [{ itemIdentifier: '30' }, { itemIdentifier: '99' }] },
        sequenceNumbers,
      ),
    ).toBe(0);
  });
});

describe('compareSequenceNumbers', () => {
  it('compares as numbers, whatever their width', () => {
    expect(compareSequenceNumbers('000000000000000000009', '10')).toBe(-1);
    expect(compareSequenceNumbers('100000000000000000000000001', '99')).toBe(1);
    expect(compareSequenceNumbers('007', '7')).toBe(0);
  });
});

describe('readableShards', () => {
  it('lets a child shard wait until its parent has been read to its end', () => {
    // Prepare
    const parent = { shardId: 'p', finished: false };
    const child = { shardId: 'c', parentShardId: 'p', finished: false };

    // Act / Assess
    expect(readableShards([parent, child])).toEqual([parent]);
    expect(readableShards([{ ...parent, finished: true }, child])).toEqual([child]);
  });

  it('reads a shard whose parent is unknown (trimmed away)', () => {
    const orphan = { shardId: 'c', parentShardId: 'gone', finished: false };
    expect(readableShards([orphan])).toEqual([orphan]);
  });

  it('never reads a finished shard again', () => {
    expect(readableShards([{ shardId: 'a', finished: true }])).toEqual([]);
  });
});
