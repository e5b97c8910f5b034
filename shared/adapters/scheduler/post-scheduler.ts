import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  type SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import type { DeliveryMessage, PostScheduler } from '../../ports/queues.js';

export interface EventBridgePostSchedulerConfig {
  /** The schedule group every post schedule lives in (made by the stack, scopes the IAM grants). */
  groupName: string;
  /** The delivery queue the schedule sends the message to. */
  targetQueueArn: string;
  /** The role Scheduler assumes to send it: needs `sqs:SendMessage` on the target queue. */
  roleArn: string;
  /** Where Scheduler puts a message it could not send after its retries (an SQS queue). */
  deadLetterQueueArn?: string;
}

/**
 * How long, and how often, Scheduler keeps trying to put the message on the queue when SendMessage
 * fails (throttling, a queue briefly unavailable). An hour is far past any real outage of the
 * queue; after that the message goes to the dead-letter queue, when one is configured.
 */
export const SCHEDULE_RETRY_POLICY = { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 10 } as const;

/** Scheduler's rule for schedule names. */
const SCHEDULE_NAME = /^[0-9a-zA-Z\-_.]{1,64}$/;

/**
 * The schedule's name: the post id itself (`pst_` + a 26-character ULID fits Scheduler's rule), so
 * there is one schedule per post and it can be found, moved or deleted from the post alone.
 */
export function scheduleNameFor(postId: string): string {
  if (!SCHEDULE_NAME.test(postId)) {
    throw new RangeError(`Post id ${JSON.stringify(postId)} is not a valid schedule name.`);
  }
  return postId;
}

/**
 * A one-time `at()` expression in UTC, to the second (`at(yyyy-mm-ddThh:mm:ss)`, read with
 * `ScheduleExpressionTimezone: 'UTC'`). Milliseconds are dropped, which moves the time earlier,
 * never later.
 */
export function atExpression(fireAt: Date): string {
  if (Number.isNaN(fireAt.getTime())) throw new RangeError('fireAt is not a valid date.');
  return `at(${fireAt.toISOString().slice(0, 19)})`;
}

/**
 * Post schedules on EventBridge Scheduler: one one-time schedule per post that sends the post's
 * delivery message to the delivery queue, and deletes itself once it has run.
 *
 * Precision is the caller's business: Scheduler fires somewhere inside the target minute, so the
 * caller passes a `fireAt` about a minute before the post's `scheduledAt`, and the delivery worker
 * holds the message (SQS delay) until `scheduledAt`. This adapter sends the time it is given,
 * unchanged, even one already in the past; it does not move it to "now".
 */
export function makeEventBridgePostScheduler(
  client: SchedulerClient,
  config: EventBridgePostSchedulerConfig,
): PostScheduler {
  const scheduleInput = (
    postId: string,
    fireAt: Date,
    message: DeliveryMessage,
  ): CreateScheduleCommandInput => ({
    Name: scheduleNameFor(postId),
    GroupName: config.groupName,
    ScheduleExpression: atExpression(fireAt),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    ActionAfterCompletion: 'DELETE',
    State: 'ENABLED',
    Target: {
      Arn: config.targetQueueArn,
      RoleArn: config.roleArn,
      // Only the three ids, whatever else the caller's object carries: the worker reads the post
      // fresh. And the request's trace: Scheduler sets no AWSTraceHeader, so the body carries it.
      Input: JSON.stringify({
        tenantId: message.tenantId,
        workspaceId: message.workspaceId,
        postId: message.postId,
        ...(message.trace && { trace: message.trace }),
      } satisfies DeliveryMessage),
      RetryPolicy: { ...SCHEDULE_RETRY_POLICY },
      ...(config.deadLetterQueueArn && { DeadLetterConfig: { Arn: config.deadLetterQueueArn } }),
    },
  });

  const create = (input: CreateScheduleCommandInput) => client.send(new CreateScheduleCommand(input));

  return {
    async upsert(postId, fireAt, message) {
      const input = scheduleInput(postId, fireAt, message);
      try {
        await create(input);
        return;
      } catch (error) {
        if (!(error instanceof ConflictException)) throw error;
      }
      // It exists: move it. UpdateSchedule replaces every field (omitted ones fall back to their
      // defaults), so it gets the same full input as CreateSchedule.
      try {
        await client.send(new UpdateScheduleCommand(input));
      } catch (error) {
        // It fired (and deleted itself) or was removed between the two calls: create it once more.
        if (!(error instanceof ResourceNotFoundException)) throw error;
        await create(input);
      }
    },

    async remove(postId) {
      try {
        await client.send(
          new DeleteScheduleCommand({ Name: scheduleNameFor(postId), GroupName: config.groupName }),
        );
      } catch (error) {
        // Already fired and deleted itself, or never made: either way there is none, as asked.
        if (error instanceof ResourceNotFoundException) return;
        throw error;
      }
    },
  };
}
