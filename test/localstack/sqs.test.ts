import {
  CreateQueueCommand,
  DeleteQueueCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSqsQueue } from '../../shared/adapters/sqs/sqs-queue.js';
import type { DeliveryMessage } from '../../shared/ports/queues.js';
import { makeSqsClient, uniqueName } from './support.js';

describe('SQS queue adapter against LocalStack', () => {
  let sqs: SQSClient;
  let queueUrl: string;

  /** One long poll of the queue: the messages that are visible within `waitSeconds`. */
  const receive = async (waitSeconds: number): Promise<Message[]> => {
    const { Messages } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: waitSeconds,
      }),
    );
    return Messages ?? [];
  };

  beforeAll(async () => {
    sqs = makeSqsClient();
    const created = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('delivery') }));
    if (!created.QueueUrl) throw new Error('CreateQueue returned no QueueUrl');
    queueUrl = created.QueueUrl;
  });

  afterAll(async () => {
    if (queueUrl) await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl })).catch(() => undefined);
    sqs?.destroy();
  });

  it('send puts the message on the queue as JSON, and a consumer receives it as sent', async () => {
    // Prepare
    const queue = makeSqsQueue<DeliveryMessage>(sqs, queueUrl);
    const message: DeliveryMessage = { tenantId: 'ten_ls', workspaceId: 'wks_ls', postId: 'pst_ls_now' };

    // Act
    await queue.send(message);
    const received = await receive(5);

    // Assess
    expect(received.map((m) => JSON.parse(m.Body ?? 'null'))).toEqual([message]);
  });

  it('a delayed message stays invisible until its delay is over', async () => {
    // Prepare
    const queue = makeSqsQueue<DeliveryMessage>(sqs, queueUrl);
    const message: DeliveryMessage = { tenantId: 'ten_ls', workspaceId: 'wks_ls', postId: 'pst_ls_later' };

    // Act
    await queue.send(message, { delaySeconds: 2.2 }); // rounded up to 3 s, never early
    const early = await receive(1);
    const later = await receive(5);

    // Assess
    expect(early).toEqual([]);
    expect(later.map((m) => JSON.parse(m.Body ?? 'null'))).toEqual([message]);
  });
});
