import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECEIVE_COUNT } from '../../infra/constructs/queues.js';
import { MAX_DELAY_SECONDS, makeSqsQueue } from '../../shared/adapters/sqs/sqs-queue.js';
import type { DeliveryMessage, MessageQueue } from '../../shared/ports/queues.js';
import { clientConfig, uniqueName, useEmulatorEnvironment } from './support.js';

const message = (postId: string): DeliveryMessage => ({
  tenantId: 'ten_emu',
  workspaceId: 'wks_emu',
  postId,
});

describe('SQS queue adapter against the emulator', () => {
  let sqs: SQSClient;
  let deadLetterArn: string;
  const queues: string[] = [];

  /** A queue as infra/constructs/queues.ts makes a work queue: its dead-letter queue after MAX_RECEIVE_COUNT receives. */
  const workQueue = async (visibilityTimeout: number) => {
    const created = await sqs.send(
      new CreateQueueCommand({
        QueueName: uniqueName('work'),
        Attributes: {
          VisibilityTimeout: String(visibilityTimeout),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: deadLetterArn,
            maxReceiveCount: MAX_RECEIVE_COUNT,
          }),
        },
      }),
    );
    if (!created.QueueUrl) throw new Error('CreateQueue returned no QueueUrl');
    queues.push(created.QueueUrl);
    return created.QueueUrl;
  };

  const receive = async (queueUrl: string, options: { wait?: number; visibility?: number } = {}) => {
    const { Messages } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: options.wait ?? 0,
        ...(options.visibility !== undefined && { VisibilityTimeout: options.visibility }),
      }),
    );
    return Messages ?? [];
  };
  const bodies = (messages: Message[]) => messages.map((m) => JSON.parse(m.Body ?? 'null') as unknown);

  beforeAll(async () => {
    useEmulatorEnvironment();
    sqs = new SQSClient(clientConfig());
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('dead-letters') }));
    if (!dlq.QueueUrl) throw new Error('CreateQueue returned no QueueUrl');
    queues.push(dlq.QueueUrl);
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    deadLetterArn = Attributes?.QueueArn ?? '';
  });

  afterAll(async () => {
    for (const queueUrl of queues) await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
    sqs?.destroy();
  });

  it('send puts the message on the queue as JSON, as the consumer reads it', async () => {
    // Prepare
    const queueUrl = await workQueue(30);
    const queue: MessageQueue<DeliveryMessage> = makeSqsQueue(sqs, queueUrl);

    // Act
    await queue.send(message('pst_now'));

    // Assess
    expect(bodies(await receive(queueUrl, { wait: 5 }))).toEqual([message('pst_now')]);
  });

  it('a message sent with a trace carries it as its AWSTraceHeader, which a consumer (Lambda) reads', async () => {
    // Prepare
    const queueUrl = await workQueue(30);
    const queue = makeSqsQueue<DeliveryMessage>(sqs, queueUrl);
    const trace = 'Root=1-6748a1b2-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=1';

    // Act
    await queue.send(message('pst_traced'), { trace });
    await queue.send(message('pst_untraced'), { trace: 'Root=not-a-trace' });
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 5,
        MessageSystemAttributeNames: ['AWSTraceHeader'],
      }),
    );

    // Assess: SQS would refuse a malformed AWSTraceHeader; the adapter sent none for it.
    const traceOf = (postId: string) =>
      Messages.find((m) => (JSON.parse(m.Body ?? '{}') as DeliveryMessage).postId === postId)?.Attributes
        ?.AWSTraceHeader;
    expect(Messages).toHaveLength(2);
    expect(traceOf('pst_traced')).toBe(trace);
    expect(traceOf('pst_untraced')).toBeUndefined();
  });

  it('a delayed message stays invisible until its delay (rounded up) is over', async () => {
    // Prepare
    const queueUrl = await workQueue(30);
    const queue = makeSqsQueue<DeliveryMessage>(sqs, queueUrl);

    // Act
    await queue.send(message('pst_later'), { delaySeconds: 1.2 }); // sent as DelaySeconds 2
    const early = await receive(queueUrl);
    const later = await receive(queueUrl, { wait: 5 });

    // Assess
    expect(early).toEqual([]);
    expect(bodies(later)).toEqual([message('pst_later')]);
  });

  it('a delay over 900 s: SQS refuses it, and the adapter refuses it before sending', async () => {
    // Prepare
    const queueUrl = await workQueue(30);
    const queue = makeSqsQueue<DeliveryMessage>(sqs, queueUrl);

    // Act + Assess: moto answers as AWS does (InvalidParameterValue, "must be >= 0 and <= 900").
    await expect(
      sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: '{}',
          DelaySeconds: MAX_DELAY_SECONDS + 1,
        }),
      ),
    ).rejects.toMatchObject({ name: expect.stringMatching(/InvalidParameterValue/) });
    await expect(
      queue.send(message('pst_too_late'), { delaySeconds: MAX_DELAY_SECONDS + 1 }),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(
      queue.send(message('pst_at_limit'), { delaySeconds: MAX_DELAY_SECONDS }),
    ).resolves.toBeUndefined();
    expect(await receive(queueUrl)).toEqual([]); // the accepted one is 15 minutes away; nothing else was sent
  });

  it('a received message is invisible for the visibility timeout, then comes back', async () => {
    // Prepare
    const queueUrl = await workQueue(30);
    await makeSqsQueue<DeliveryMessage>(sqs, queueUrl).send(message('pst_visibility'));

    // Act
    const first = await receive(queueUrl, { wait: 5, visibility: 2 });
    const during = await receive(queueUrl);
    const after = await receive(queueUrl, { wait: 5 });

    // Assess
    expect(bodies(first)).toEqual([message('pst_visibility')]);
    expect(during).toEqual([]);
    expect(bodies(after)).toEqual([message('pst_visibility')]);
    expect(after[0]?.ReceiptHandle).not.toBe(first[0]?.ReceiptHandle);
  });

  it('a batch delete removes the handled messages and reports a stale handle as failed, alone', async () => {
    // Prepare
    const queueUrl = await workQueue(30);
    const queue = makeSqsQueue<DeliveryMessage>(sqs, queueUrl);
    for (const postId of ['pst_b1', 'pst_b2', 'pst_b3']) await queue.send(message(postId));
    const received: Message[] = [];
    for (let i = 0; i < 5 && received.length < 3; i++)
      received.push(...(await receive(queueUrl, { wait: 1, visibility: 2 })));
    const [kept, ...handled] = received;

    // Act: as Lambda does with a batch's successes after a partial batch response.
    const result = await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [
          ...handled.map((m, i) => ({ Id: `ok${i}`, ReceiptHandle: m.ReceiptHandle })),
          { Id: 'stale', ReceiptHandle: 'not-a-receipt-handle' },
        ],
      }),
    );
    const back = await receive(queueUrl, { wait: 5 });

    // Assess
    expect(received).toHaveLength(3);
    expect((result.Successful ?? []).map((entry) => entry.Id).sort()).toEqual(['ok0', 'ok1']);
    expect((result.Failed ?? []).map((entry) => entry.Id)).toEqual(['stale']);
    expect(bodies(back)).toEqual(bodies(kept ? [kept] : []));
  });

  it(`a message received ${MAX_RECEIVE_COUNT} times without being deleted moves to the dead-letter queue`, async () => {
    // Prepare
    const queueUrl = await workQueue(30);
    await makeSqsQueue<DeliveryMessage>(sqs, queueUrl).send(message('pst_poison'));
    const deadLetterUrl = queues[0] ?? '';

    // Act: each receive fails to delete it, as a consumer that throws does (visibility 0: back at once).
    const receipts: number[] = [];
    for (let i = 0; i < MAX_RECEIVE_COUNT; i++)
      receipts.push((await receive(queueUrl, { wait: 1, visibility: 0 })).length);
    const afterLimit = await receive(queueUrl, { wait: 1 });
    const deadLetters = await receive(deadLetterUrl, { wait: 5 });

    // Assess
    expect(receipts).toEqual(Array.from({ length: MAX_RECEIVE_COUNT }, () => 1));
    expect(afterLimit).toEqual([]);
    expect(bodies(deadLetters)).toEqual([message('pst_poison')]);
  });
});
