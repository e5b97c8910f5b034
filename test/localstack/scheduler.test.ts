import {
  CreateScheduleGroupCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  ResourceNotFoundException,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEventBridgePostScheduler } from '../../shared/adapters/scheduler/post-scheduler.js';
import { newId } from '../../shared/domain/ids.js';
import type { DeliveryMessage, PostScheduler } from '../../shared/ports/queues.js';
import { offers } from './probe.js';
import { LOCALSTACK_ACCOUNT, localstack, makeSchedulerClient, makeSqsClient, uniqueName } from './support.js';

const schedulerOffered = offers(localstack().services, 'scheduler');
if (!schedulerOffered) {
  console.warn(
    `LocalStack at ${localstack().endpoint} offers no EventBridge Scheduler (not in /_localstack/health); ` +
      'its tests do not run. Recent LocalStack versions have it.',
  );
}

describe.runIf(schedulerOffered)('EventBridge Scheduler adapter against LocalStack', () => {
  let scheduler: SchedulerClient;
  let sqs: SQSClient;
  let groupName: string;
  let queueUrl: string;
  let postScheduler: PostScheduler;
  let targetQueueArn: string;
  const roleArn = `arn:aws:iam::${LOCALSTACK_ACCOUNT}:role/post-scheduler`;

  const message = (postId: string): DeliveryMessage => ({
    tenantId: 'ten_ls',
    workspaceId: 'wks_ls',
    postId,
  });
  const getSchedule = (postId: string) =>
    scheduler.send(new GetScheduleCommand({ Name: postId, GroupName: groupName }));

  beforeAll(async () => {
    scheduler = makeSchedulerClient();
    sqs = makeSqsClient();
    const created = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('scheduled') }));
    if (!created.QueueUrl) throw new Error('CreateQueue returned no QueueUrl');
    queueUrl = created.QueueUrl;
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
    );
    targetQueueArn = Attributes?.QueueArn ?? '';
    groupName = uniqueName('posts');
    await scheduler.send(new CreateScheduleGroupCommand({ Name: groupName }));
    postScheduler = makeEventBridgePostScheduler(scheduler, { groupName, targetQueueArn, roleArn });
  });

  afterAll(async () => {
    if (groupName)
      await scheduler.send(new DeleteScheduleGroupCommand({ Name: groupName })).catch(() => undefined);
    if (queueUrl) await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl })).catch(() => undefined);
    scheduler?.destroy();
    sqs?.destroy();
  });

  it('upsert makes a one-time UTC schedule that sends the three ids to the delivery queue', async () => {
    // Prepare
    const postId = newId('post');

    // Act
    await postScheduler.upsert(postId, new Date('2030-01-01T08:59:00.500Z'), message(postId));
    const schedule = await getSchedule(postId);

    // Assess
    expect(schedule.ScheduleExpression).toBe('at(2030-01-01T08:59:00)');
    expect(schedule.ScheduleExpressionTimezone).toBe('UTC');
    expect(schedule.FlexibleTimeWindow?.Mode).toBe('OFF');
    expect(schedule.Target?.Arn).toBe(targetQueueArn);
    expect(schedule.Target?.RoleArn).toBe(roleArn);
    expect(JSON.parse(schedule.Target?.Input ?? 'null')).toEqual(message(postId));
  });

  it('upsert of a post that already has a schedule moves it', async () => {
    // Prepare
    const postId = newId('post');
    await postScheduler.upsert(postId, new Date('2030-01-01T08:59:00Z'), message(postId));

    // Act
    await postScheduler.upsert(postId, new Date('2030-02-01T10:29:00Z'), message(postId));
    const schedule = await getSchedule(postId);

    // Assess
    expect(schedule.ScheduleExpression).toBe('at(2030-02-01T10:29:00)');
    expect(JSON.parse(schedule.Target?.Input ?? 'null')).toEqual(message(postId));
  });

  it('remove deletes the schedule, and removing it again is not an error', async () => {
    // Prepare
    const postId = newId('post');
    await postScheduler.upsert(postId, new Date('2030-01-01T08:59:00Z'), message(postId));

    // Act
    await postScheduler.remove(postId);
    const again = postScheduler.remove(postId);

    // Assess
    await expect(again).resolves.toBeUndefined();
    await expect(getSchedule(postId)).rejects.toBeInstanceOf(ResourceNotFoundException);
  });
});
