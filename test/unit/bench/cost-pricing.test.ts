import { describe, expect, it } from 'vitest';
import {
  dollarsOf,
  lambdaUsage,
  networkReadsPerMillionPosts,
  PRICE,
  PRICED_SERVICES,
  perMillionPosts,
  withEventSourceRequests,
} from '../../../bench/cost-pricing.js';

const none = {
  apiRequests: 0,
  invocations: [],
  calls: new Map<string, number>(),
  dynamodbReadUnits: 0,
  dynamodbWriteUnits: 0,
  schedulerInvocations: 0,
};

describe('lambdaUsage', () => {
  it('bills each run per millisecond rounded up, at its function’s memory', () => {
    const usage = lambdaUsage([
      { fn: 'deliveryWorker', records: 1, ms: 40.2 },
      { fn: 'outbox', records: 3, ms: 1.5 },
      { fn: 'deliveryWorker', records: 1, ms: 59 },
    ]);

    expect(usage).toEqual([
      // (41 + 59) ms at 2,048 MB = 0.1 s × 2 GB
      { fn: 'deliveryWorker', runs: 2, billedMs: 100, memoryMb: 2048, gbSeconds: 0.2 },
      // 2 ms at 512 MB
      { fn: 'outbox', runs: 1, billedMs: 2, memoryMb: 512, gbSeconds: 0.001 },
    ]);
  });

  it('prices a function it does not know at 512 MB', () => {
    expect(lambdaUsage([{ fn: 'somethingNew', records: 1, ms: 1000 }])[0]?.gbSeconds).toBe(0.5);
  });
});

describe('withEventSourceRequests', () => {
  it('adds one receive and one delete per consumer invocation, and none for a stream or API function', () => {
    const calls = withEventSourceRequests(new Map([['sqs SendMessage delivery', 2]]), [
      { fn: 'deliveryWorker', records: 1, ms: 1 },
      { fn: 'deliveryWorker', records: 1, ms: 1 },
      { fn: 'webhookFanOut', records: 1, ms: 1 },
      { fn: 'outbox', records: 1, ms: 1 },
      { fn: 'api (operation)', records: 1, ms: 1 },
    ]);

    expect(Object.fromEntries(calls)).toEqual({
      'sqs SendMessage delivery': 2,
      'sqs ReceiveMessage delivery': 2,
      'sqs DeleteMessageBatch delivery': 2,
      'sqs ReceiveMessage events': 1,
      'sqs DeleteMessageBatch events': 1,
    });
  });

  it('leaves the calls it was handed unchanged', () => {
    const handed = new Map([['kms Decrypt', 1]]);
    withEventSourceRequests(handed, [{ fn: 'deliveryWorker', records: 1, ms: 1 }]);
    expect(Object.fromEntries(handed)).toEqual({ 'kms Decrypt': 1 });
  });
});

describe('dollarsOf', () => {
  it('prices every service, 0 where nothing was counted', () => {
    const dollars = dollarsOf(none);

    expect([...dollars.keys()]).toEqual([...PRICED_SERVICES]);
    expect([...dollars.values()].every((value) => value === 0)).toBe(true);
  });

  it('prices each service’s requests and units at its list price', () => {
    const dollars = dollarsOf({
      apiRequests: 3,
      // 2 requests and (1,000 + 500) ms at 2,048 MB = 3 GB-s
      invocations: [
        { fn: 'deliveryWorker', records: 1, ms: 1000 },
        { fn: 'deliveryWorker', records: 1, ms: 500 },
      ],
      calls: new Map([
        ['sqs SendMessage delivery', 4],
        ['sqs ReceiveMessage delivery', 1],
        ['scheduler CreateSchedule', 9],
        ['s3 PUT', 2],
        ['s3 HEAD', 5],
        ['kms Decrypt', 7],
      ]),
      dynamodbReadUnits: 8,
      dynamodbWriteUnits: 16,
      schedulerInvocations: 6,
    });

    expect(dollars.get('API Gateway')).toBeCloseTo(3 * PRICE.apiGatewayHttpRequest, 15);
    expect(dollars.get('Lambda')).toBeCloseTo(2 * PRICE.lambdaRequest + 3 * PRICE.lambdaArmGbSecond, 15);
    expect(dollars.get('DynamoDB')).toBeCloseTo(
      8 * PRICE.dynamodbReadUnit + 16 * PRICE.dynamodbWriteUnit,
      15,
    );
    expect(dollars.get('SQS')).toBeCloseTo(5 * PRICE.sqsRequest, 15);
    // Only the schedules that fired; creating them is free.
    expect(dollars.get('SCHEDULER')).toBeCloseTo(6 * PRICE.schedulerInvocation, 15);
    expect(dollars.get('S3')).toBeCloseTo(2 * PRICE.s3Put + 5 * PRICE.s3Get, 15);
    expect(dollars.get('KMS')).toBeCloseTo(7 * PRICE.kmsRequest, 15);
  });

  it('comes to the published list prices per million', () => {
    const perMillion = (usage: Partial<typeof none>) =>
      [...dollarsOf({ ...none, ...usage }).values()].reduce((a, b) => a + b, 0) * 1e6;

    expect(perMillion({ apiRequests: 1 })).toBeCloseTo(1.0, 9);
    expect(perMillion({ dynamodbWriteUnits: 1 })).toBeCloseTo(0.625, 9);
    expect(perMillion({ dynamodbReadUnits: 1 })).toBeCloseTo(0.125, 9);
    expect(perMillion({ calls: new Map([['sqs SendMessage events', 1]]) })).toBeCloseTo(0.4, 9);
    expect(perMillion({ schedulerInvocations: 1 })).toBeCloseTo(1.0, 9);
    expect(perMillion({ calls: new Map([['kms Decrypt', 1]]) })).toBeCloseTo(3.0, 9);
  });
});

describe('perMillionPosts', () => {
  it('scales the dollars of a few posts to a million', () => {
    expect(perMillionPosts(0.000_2, 4)).toBeCloseTo(50, 9);
  });

  it('refuses no posts rather than dividing by zero', () => {
    expect(() => perMillionPosts(1, 0)).toThrow(RangeError);
  });
});

describe('networkReadsPerMillionPosts', () => {
  it('is one read per slot for a post read alone, and a batch’s share when the network reads several', () => {
    expect(networkReadsPerMillionPosts(6, 1)).toEqual({ alone: 6_000_000, batched: 6_000_000 });
    expect(networkReadsPerMillionPosts(6, 100)).toEqual({ alone: 6_000_000, batched: 60_000 });
  });

  it('refuses a batch size below one', () => {
    expect(() => networkReadsPerMillionPosts(6, 0)).toThrow(RangeError);
  });
});
