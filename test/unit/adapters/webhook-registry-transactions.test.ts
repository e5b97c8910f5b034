import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeDynamoWebhookRegistry } from '../../../shared/adapters/dynamodb/webhook-registry.js';
import { ConflictError } from '../../../shared/domain/errors.js';
import { WebhookLimitReached, type WebhookRecord } from '../../../shared/ports/webhook-store.js';

/**
 * DynamoDB Local runs transactions one at a time, so it never answers TransactionConflict as
 * DynamoDB does when concurrent creates meet on a workspace's counter: that answer is played here.
 */
const TABLE = 'main';
const webhook: WebhookRecord = {
  webhookId: 'whk_01J0000000000000000000000A',
  tenantId: 'ten_1',
  workspaceId: 'wks_1',
  url: 'https://receiver.example.com/hook',
  events: ['post.published'],
  createdAt: '2030-01-01T00:00:00.000Z',
  consecutiveFailures: 0,
  secretCiphertext: 'v1.x',
};

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const dbMock = mockClient(DynamoDBDocumentClient);
const pauses: number[] = [];
const registry = makeDynamoWebhookRegistry(
  DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })),
  TABLE,
  {
    backoff: async (tryNumber) => {
      pauses.push(tryNumber);
    },
  },
);

describe('webhook registry transactions', () => {
  beforeEach(() => {
    dbMock.reset();
    pauses.length = 0;
  });

  it('writes the counter increment and the webhook in one transaction, the counter conditioned on the limit', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});

    // Act
    await registry.createWebhook(webhook, 25);

    // Assess
    const items = dbMock.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems;
    expect(items).toHaveLength(2);
    expect(items?.[0]?.Update).toMatchObject({
      TableName: TABLE,
      Key: { pk: 'TENANT#ten_1#WS#wks_1', sk: 'COUNTER#WEBHOOKS' },
      ConditionExpression: 'attribute_not_exists(webhookCount) OR webhookCount < :limit',
      ExpressionAttributeValues: expect.objectContaining({ ':limit': 25, ':one': 1 }),
    });
    expect(items?.[1]?.Put).toMatchObject({
      TableName: TABLE,
      Item: { pk: 'TENANT#ten_1#WS#wks_1', sk: `WEBHOOK#${webhook.webhookId}`, entity: 'webhook' },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('tries again after a pause when another transaction on the counter won the race', async () => {
    // Prepare
    dbMock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict', 'None'))
      .rejectsOnce(cancelled('TransactionConflict', 'None'))
      .resolves({});

    // Act
    await registry.createWebhook(webhook, 25);

    // Assess
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(3);
    expect(pauses).toEqual([1, 2]);
  });

  it('answers 409 conflict after ten lost races, having tried ten times', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'None'));

    // Act
    const creating = registry.createWebhook(webhook, 25);

    // Assess
    await expect(creating).rejects.toBeInstanceOf(ConflictError);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(10);
  });

  it('a refused counter condition is the limit, without another try', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));

    // Act
    const creating = registry.createWebhook(webhook, 25);

    // Assess
    await expect(creating).rejects.toEqual(new WebhookLimitReached(25));
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('a delete that loses a race is tried again; one whose webhook is gone answers false', async () => {
    // Prepare
    dbMock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('None', 'TransactionConflict'))
      .rejectsOnce(cancelled('ConditionalCheckFailed', 'None'));

    // Act
    const deleted = await registry.deleteWebhook('ten_1', 'wks_1', webhook.webhookId);

    // Assess
    expect(deleted).toBe(false);
    expect(dbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('lets a cancellation for any other reason reach the caller', async () => {
    // Prepare
    const throttled = cancelled('ThrottlingError', 'None');
    dbMock.on(TransactWriteCommand).rejects(throttled);

    // Act
    const creating = registry.createWebhook(webhook, 25);

    // Assess
    await expect(creating).rejects.toBe(throttled);
  });
});
