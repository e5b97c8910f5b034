import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  SchedulerServiceException,
  UpdateScheduleCommand,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  atExpression,
  type EventBridgePostSchedulerConfig,
  makeEventBridgePostScheduler,
  scheduleNameFor,
} from '../../../shared/adapters/scheduler/post-scheduler.js';
import type { DeliveryMessage } from '../../../shared/ports/queues.js';

const POST_ID = 'pst_01JD5XZ9K8M3Q7R2T4V6W8Y0ZA';
const config: EventBridgePostSchedulerConfig = {
  groupName: 'social-posts',
  targetQueueArn: 'arn:aws:sqs:eu-west-1:111122223333:delivery',
  roleArn: 'arn:aws:iam::111122223333:role/scheduler-delivery',
};
const message: DeliveryMessage = { tenantId: 'ten_1', workspaceId: 'wks_1', postId: POST_ID };
const fireAt = new Date('2030-05-17T09:29:00.000Z');

/** The full input every create and update is expected to carry, for `fireAt` and `message`. */
const expectedInput = {
  Name: POST_ID,
  GroupName: 'social-posts',
  ScheduleExpression: 'at(2030-05-17T09:29:00)',
  ScheduleExpressionTimezone: 'UTC',
  FlexibleTimeWindow: { Mode: 'OFF' },
  ActionAfterCompletion: 'DELETE',
  State: 'ENABLED',
  Target: {
    Arn: 'arn:aws:sqs:eu-west-1:111122223333:delivery',
    RoleArn: 'arn:aws:iam::111122223333:role/scheduler-delivery',
    Input: `{"tenantId":"ten_1","workspaceId":"wks_1","postId":"${POST_ID}"}`,
    RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 10 },
  },
};

const schedulerMock = mockClient(SchedulerClient);
const client = new SchedulerClient({ region: 'eu-west-1' });
const scheduler = makeEventBridgePostScheduler(client, config);

const conflict = () =>
  new ConflictException({
    message: 'Schedule already exists.',
    Message: 'Schedule already exists.',
    $metadata: {},
  });
const notFound = () =>
  new ResourceNotFoundException({
    message: 'Schedule not found.',
    Message: 'Schedule not found.',
    $metadata: {},
  });
/** What the SDK throws for an error its model does not name, such as a missing IAM grant. */
const accessDenied = () =>
  new SchedulerServiceException({
    name: 'AccessDeniedException',
    $fault: 'client',
    $metadata: { httpStatusCode: 403 },
    message: 'not authorized to perform scheduler:DeleteSchedule',
  });

describe('makeEventBridgePostScheduler', () => {
  beforeEach(() => {
    schedulerMock.reset();
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    schedulerMock.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    schedulerMock.on(DeleteScheduleCommand).resolves({});
  });

  describe('upsert', () => {
    it('creates a one-time, self-deleting schedule that sends the delivery message to the queue', async () => {
      // Act
      await scheduler.upsert(POST_ID, fireAt, message);

      // Assess
      const creates = schedulerMock.commandCalls(CreateScheduleCommand);
      expect(creates).toHaveLength(1);
      expect(creates[0]?.args[0].input).toEqual(expectedInput);
      expect(schedulerMock.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
    });

    it("puts the request's trace in the message it sends, as Scheduler sets no AWSTraceHeader", async () => {
      // Prepare
      const trace = 'Root=1-6748a1b2-0123456789abcdef01234567;Sampled=1';

      // Act
      await scheduler.upsert(POST_ID, fireAt, { ...message, accountId: 'acc_1', trace });

      // Assess
      const input = schedulerMock.commandCalls(CreateScheduleCommand)[0]?.args[0].input;
      expect(JSON.parse(input?.Target?.Input ?? '{}')).toEqual({ ...message, trace });
    });

    it('sets the dead-letter queue on the target when one is configured', async () => {
      // Prepare
      const withDlq = makeEventBridgePostScheduler(client, {
        ...config,
        deadLetterQueueArn: 'arn:aws:sqs:eu-west-1:111122223333:scheduler-dlq',
      });

      // Act
      await withDlq.upsert(POST_ID, fireAt, message);

      // Assess
      expect(schedulerMock.commandCalls(CreateScheduleCommand)[0]?.args[0].input).toEqual({
        ...expectedInput,
        Target: {
          ...expectedInput.Target,
          DeadLetterConfig: { Arn: 'arn:aws:sqs:eu-west-1:111122223333:scheduler-dlq' },
        },
      });
    });

    it('drops the milliseconds of the fire time (to the second, never later)', async () => {
      // Act
      await scheduler.upsert(POST_ID, new Date('2030-05-17T09:29:41.999Z'), message);

      // Assess
      expect(schedulerMock.commandCalls(CreateScheduleCommand)[0]?.args[0].input.ScheduleExpression).toBe(
        'at(2030-05-17T09:29:41)',
      );
    });

    it('keeps a fire time already in the past as given', async () => {
      // Act
      await scheduler.upsert(POST_ID, new Date('2001-02-03T04:05:06Z'), message);

      // Assess
      expect(schedulerMock.commandCalls(CreateScheduleCommand)[0]?.args[0].input.ScheduleExpression).toBe(
        'at(2001-02-03T04:05:06)',
      );
    });

    it('carries only the three ids of the delivery message, whatever else the object holds', async () => {
      // Prepare
      const wider = { ...message, content: 'secret draft text' } as DeliveryMessage;

      // Act
      await scheduler.upsert(POST_ID, fireAt, wider);

      // Assess
      const input = schedulerMock.commandCalls(CreateScheduleCommand)[0]?.args[0].input;
      expect(JSON.parse(input?.Target?.Input ?? '')).toEqual(message);
    });

    it('moves an existing schedule: a conflict on create becomes an update with the same full input', async () => {
      // Prepare
      schedulerMock.on(CreateScheduleCommand).rejects(conflict());

      // Act
      await scheduler.upsert(POST_ID, fireAt, message);

      // Assess
      expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(1);
      const updates = schedulerMock.commandCalls(UpdateScheduleCommand);
      expect(updates).toHaveLength(1);
      expect(updates[0]?.args[0].input).toEqual(expectedInput);
    });

    it('creates again when the schedule vanished between the conflict and the update', async () => {
      // Prepare
      schedulerMock
        .on(CreateScheduleCommand)
        .rejectsOnce(conflict())
        .resolves({ ScheduleArn: 'arn:schedule' });
      schedulerMock.on(UpdateScheduleCommand).rejects(notFound());

      // Act
      await scheduler.upsert(POST_ID, fireAt, message);

      // Assess
      const creates = schedulerMock.commandCalls(CreateScheduleCommand);
      expect(creates).toHaveLength(2);
      expect(creates[1]?.args[0].input).toEqual(expectedInput);
      expect(schedulerMock.commandCalls(UpdateScheduleCommand)).toHaveLength(1);
    });

    it('lets any other create error reach the caller, without trying an update', async () => {
      // Prepare
      const invalid = new ValidationException({
        message: 'Invalid Schedule Expression',
        Message: 'Invalid Schedule Expression',
        $metadata: {},
      });
      schedulerMock.on(CreateScheduleCommand).rejects(invalid);

      // Act
      const upserting = scheduler.upsert(POST_ID, fireAt, message);

      // Assess
      await expect(upserting).rejects.toBe(invalid);
      expect(schedulerMock.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
    });

    it('lets an update error other than not-found reach the caller', async () => {
      // Prepare
      const denied = accessDenied();
      schedulerMock.on(CreateScheduleCommand).rejects(conflict());
      schedulerMock.on(UpdateScheduleCommand).rejects(denied);

      // Act
      const upserting = scheduler.upsert(POST_ID, fireAt, message);

      // Assess
      await expect(upserting).rejects.toBe(denied);
      expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(1);
    });

    it('rejects an invalid fire time before calling Scheduler', async () => {
      // Act
      const upserting = scheduler.upsert(POST_ID, new Date(Number.NaN), message);

      // Assess
      await expect(upserting).rejects.toThrow(RangeError);
      expect(schedulerMock.calls()).toHaveLength(0);
    });
  });

  describe('remove', () => {
    it("deletes the post's schedule in the group", async () => {
      // Act
      await scheduler.remove(POST_ID);

      // Assess
      const deletes = schedulerMock.commandCalls(DeleteScheduleCommand);
      expect(deletes).toHaveLength(1);
      expect(deletes[0]?.args[0].input).toEqual({ Name: POST_ID, GroupName: 'social-posts' });
    });

    it('does nothing when there is no schedule (already fired and deleted, or never made)', async () => {
      // Prepare
      schedulerMock.on(DeleteScheduleCommand).rejects(notFound());

      // Act
      const removing = scheduler.remove(POST_ID);

      // Assess
      await expect(removing).resolves.toBeUndefined();
    });

    it('lets any other error reach the caller, such as a missing IAM grant', async () => {
      // Prepare
      const denied = accessDenied();
      schedulerMock.on(DeleteScheduleCommand).rejects(denied);

      // Act
      const removing = scheduler.remove(POST_ID);

      // Assess
      await expect(removing).rejects.toBe(denied);
    });
  });
});

describe('scheduleNameFor', () => {
  it('uses the post id as the schedule name', () => {
    expect(scheduleNameFor(POST_ID)).toBe(POST_ID);
  });

  it.each(['', 'pst_with space', 'pst/../x', `pst_${'A'.repeat(61)}`])(
    'rejects %j, which Scheduler would not accept as a name',
    (postId) => {
      expect(() => scheduleNameFor(postId)).toThrow(RangeError);
    },
  );
});

describe('atExpression', () => {
  const years2000to2100 = fc.date({
    min: new Date('2000-01-01T00:00:00.000Z'),
    max: new Date('2100-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  });

  it('is always at(yyyy-mm-ddThh:mm:ss) and reads back as the same second, in UTC', () => {
    fc.assert(
      fc.property(years2000to2100, (date) => {
        // Act
        const expression = atExpression(date);

        // Assess
        expect(expression).toMatch(/^at\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\)$/);
        const readBack = Date.parse(`${expression.slice(3, -1)}Z`);
        expect(readBack).toBe(Math.floor(date.getTime() / 1000) * 1000);
      }),
    );
  });
});
