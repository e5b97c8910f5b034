import { SendMessageCommand, SQSClient, SQSServiceException } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeSqsQueue, toDelaySeconds } from '../../../shared/adapters/sqs/sqs-queue.js';
import type { DeliveryMessage } from '../../../shared/ports/queues.js';

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/delivery';
const message: DeliveryMessage = { tenantId: 'ten_1', workspaceId: 'wks_1', postId: 'pst_1' };

const sqsMock = mockClient(SQSClient);
const queue = makeSqsQueue<DeliveryMessage>(new SQSClient({ region: 'eu-west-1' }), QUEUE_URL);

describe('makeSqsQueue', () => {
  beforeEach(() => {
    sqsMock.reset();
    sqsMock.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
  });

  it('sends the message as a JSON body to the queue, with no DelaySeconds when none is asked', async () => {
    // Act
    await queue.send(message);

    // Assess
    const calls = sqsMock.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      MessageBody: '{"tenantId":"ten_1","workspaceId":"wks_1","postId":"pst_1"}',
    });
  });

  it('sends no DelaySeconds when the options carry none', async () => {
    // Act
    await queue.send(message, {});

    // Assess
    expect(sqsMock.commandCalls(SendMessageCommand)[0]?.args[0].input).not.toHaveProperty('DelaySeconds');
  });

  it('sends the trace the message continues as its AWSTraceHeader, rebuilt, and a malformed one not at all', async () => {
    // Prepare
    const trace = 'Root=1-6748a1b2-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=1';

    // Act
    await queue.send(message, { trace: `${trace};Lineage=a87bd80c:1` });
    await queue.send(message, { trace: 'Root=1-nope' });

    // Assess
    const [traced, malformed] = sqsMock.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(traced?.MessageSystemAttributes).toEqual({
      AWSTraceHeader: { DataType: 'String', StringValue: trace },
    });
    expect(malformed).not.toHaveProperty('MessageSystemAttributes');
  });

  it('passes the delay as DelaySeconds', async () => {
    // Act
    await queue.send(message, { delaySeconds: 42 });

    // Assess
    expect(sqsMock.commandCalls(SendMessageCommand)[0]?.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      MessageBody: JSON.stringify(message),
      DelaySeconds: 42,
    });
  });

  it.each([
    [0, 0],
    [900, 900],
    [0.001, 1],
    [41.2, 42],
    [899.5, 900],
  ])('accepts a delay of %s s and sends DelaySeconds %s (fractions rounded up)', async (asked, sent) => {
    // Act
    await queue.send(message, { delaySeconds: asked });

    // Assess
    expect(sqsMock.commandCalls(SendMessageCommand)[0]?.args[0].input.DelaySeconds).toBe(sent);
  });

  it.each([-1, -0.5, 900.5, 901, 3600, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects a delay of %s s with a RangeError and sends nothing',
    async (delaySeconds) => {
      // Act
      const sending = queue.send(message, { delaySeconds });

      // Assess
      await expect(sending).rejects.toThrow(RangeError);
      expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(0);
    },
  );

  it('lets an SQS error reach the caller', async () => {
    // Prepare
    const denied = new SQSServiceException({
      name: 'AccessDenied',
      $fault: 'client',
      $metadata: {},
      message: 'denied',
    });
    sqsMock.on(SendMessageCommand).rejects(denied);

    // Act
    const sending = queue.send(message);

    // Assess
    await expect(sending).rejects.toBe(denied);
  });
});

describe('toDelaySeconds', () => {
  it('always gives a whole number of seconds within 0–900, never earlier than asked', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 900, noNaN: true }), (asked) => {
        const sent = toDelaySeconds(asked);
        expect(Number.isInteger(sent)).toBe(true);
        expect(sent).toBeGreaterThanOrEqual(asked);
        expect(sent - 1).toBeLessThan(asked);
        expect(sent).toBeLessThanOrEqual(900);
        expect(Object.is(sent, -0)).toBe(false);
      }),
    );
  });
});
