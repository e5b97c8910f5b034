import {
  CreateScheduleGroupCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  ListSchedulesCommand,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEventBridgePostScheduler,
  SCHEDULE_RETRY_POLICY,
} from '../../shared/adapters/scheduler/post-scheduler.js';
import { newId } from '../../shared/domain/ids.js';
import type { DeliveryMessage, PostScheduler } from '../../shared/ports/queues.js';
import { clientConfig, uniqueName, useEmulatorEnvironment } from './support.js';

/**
 * moto (5.2) stores schedules and checks names, groups and duplicates as AWS does, but it is more
 * lenient on what a schedule says: it accepts an impossible `at()` date and a FLEXIBLE window with
 * no MaximumWindowInMinutes, which AWS refuses (ValidationException), and a schedule in a group
 * that does not exist makes it answer 500 instead of ResourceNotFoundException. None of these is a
 * path of the adapter (it always sends OFF, a valid expression, and the stack's group), so the
 * tests below assert the exact fields it sends rather than rely on moto to refuse bad ones; the
 * unit tests (test/unit/adapters/) check the expression and name rules themselves. moto never
 * fires a schedule.
 */
describe('EventBridge Scheduler adapter against the emulator', () => {
  let scheduler: SchedulerClient;
  let sqs: SQSClient;
  let groupName: string;
  let queueUrl: string;
  let deadLetterUrl: string;
  let targetQueueArn: string;
  let deadLetterQueueArn: string;
  let postScheduler: PostScheduler;
  const roleArn = 'arn:aws:iam::123456789012:role/post-scheduler';

  const message = (postId: string): DeliveryMessage => ({
    tenantId: 'ten_emu',
    workspaceId: 'wks_emu',
    postId,
    accountId: 'acc_emu',
    mediaIds: ['med_emu'],
  });
  const getSchedule = (postId: string) =>
    scheduler.send(new GetScheduleCommand({ Name: postId, GroupName: groupName }));
  const queueArn = async (url: string) => {
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    );
    return Attributes?.QueueArn ?? '';
  };
  const createQueue = async (prefix: string) => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName(prefix) }));
    if (!QueueUrl) throw new Error('CreateQueue returned no QueueUrl');
    return QueueUrl;
  };

  beforeAll(async () => {
    useEmulatorEnvironment();
    // As in a function: a client with no endpoint (the emulator's comes from AWS_ENDPOINT_URL).
    scheduler = new SchedulerClient({});
    sqs = new SQSClient(clientConfig());
    queueUrl = await createQueue('delivery');
    deadLetterUrl = await createQueue('schedule-failures');
    targetQueueArn = await queueArn(queueUrl);
    deadLetterQueueArn = await queueArn(deadLetterUrl);
    // The stack's one group for post schedules (infra/constructs/post-scheduling.ts).
    groupName = uniqueName('posts');
    await scheduler.send(new CreateScheduleGroupCommand({ Name: groupName }));
    postScheduler = makeEventBridgePostScheduler(scheduler, {
      groupName,
      targetQueueArn,
      roleArn,
      deadLetterQueueArn,
    });
  });

  afterAll(async () => {
    if (groupName) await scheduler.send(new DeleteScheduleGroupCommand({ Name: groupName }));
    for (const url of [queueUrl, deadLetterUrl].filter(Boolean))
      await sqs.send(new DeleteQueueCommand({ QueueUrl: url }));
    scheduler?.destroy();
    sqs?.destroy();
  });

  it('upsert creates the one-time UTC schedule in the group, window OFF, sending the three ids to the queue', async () => {
    // Prepare
    const postId = newId('post');

    // Act
    await postScheduler.upsert(postId, new Date('2030-01-01T08:59:00.500Z'), message(postId));
    const schedule = await getSchedule(postId);

    // Assess
    expect(schedule).toMatchObject({
      Name: postId,
      GroupName: groupName,
      ScheduleExpression: 'at(2030-01-01T08:59:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      ActionAfterCompletion: 'DELETE',
    });
    expect(schedule.Target).toMatchObject({
      Arn: targetQueueArn,
      RoleArn: roleArn,
      RetryPolicy: SCHEDULE_RETRY_POLICY,
      DeadLetterConfig: { Arn: deadLetterQueueArn },
    });
    expect(JSON.parse(schedule.Target?.Input ?? 'null')).toEqual({
      tenantId: 'ten_emu',
      workspaceId: 'wks_emu',
      postId,
    });
  });

  it('upsert of a post that has a schedule moves it (CreateSchedule conflicts, UpdateSchedule replaces it)', async () => {
    // Prepare
    const postId = newId('post');
    await postScheduler.upsert(postId, new Date('2030-01-01T08:59:00Z'), message(postId));

    // Act
    await postScheduler.upsert(postId, new Date('2030-02-01T10:29:00Z'), message(postId));
    const schedule = await getSchedule(postId);
    const { Schedules } = await scheduler.send(
      new ListSchedulesCommand({ GroupName: groupName, NamePrefix: postId }),
    );

    // Assess
    expect(schedule.ScheduleExpression).toBe('at(2030-02-01T10:29:00)');
    expect(schedule.FlexibleTimeWindow).toEqual({ Mode: 'OFF' });
    expect(schedule.Target?.DeadLetterConfig).toEqual({ Arn: deadLetterQueueArn });
    expect(Schedules?.map((s) => s.Name)).toEqual([postId]);
  });

  it('remove deletes the schedule, and removing it again (or one never made) is not an error', async () => {
    // Prepare
    const postId = newId('post');
    await postScheduler.upsert(postId, new Date('2030-01-01T08:59:00Z'), message(postId));

    // Act
    await postScheduler.remove(postId);
    const again = postScheduler.remove(postId);
    const never = postScheduler.remove(newId('post'));

    // Assess
    await expect(again).resolves.toBeUndefined();
    await expect(never).resolves.toBeUndefined();
    await expect(getSchedule(postId)).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('a schedule removed under an upsert is created again, not lost', async () => {
    // Prepare
    const postId = newId('post');
    await postScheduler.upsert(postId, new Date('2030-01-01T08:59:00Z'), message(postId));
    await postScheduler.remove(postId);

    // Act
    await postScheduler.upsert(postId, new Date('2030-03-01T07:14:00Z'), message(postId));

    // Assess
    expect((await getSchedule(postId)).ScheduleExpression).toBe('at(2030-03-01T07:14:00)');
  });
});
