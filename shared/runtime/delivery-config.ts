import { requireEnv } from './config.js';

/** Where the delivery pipeline's queues and schedules live in AWS (set by the CDK stack). */
export interface DeliveryConfig {
  deliveryQueueUrl: string;
  eventsQueueUrl: string;
  importQueueUrl: string;
  /** The webhook-delivery queue: dispatch messages (the fan-out, the outbox, the dispatcher). */
  webhookQueueUrl: string;
  scheduler: { groupName: string; targetQueueArn: string; roleArn: string; deadLetterQueueArn?: string };
}

export function loadDeliveryConfig(env: NodeJS.ProcessEnv = process.env): DeliveryConfig {
  return {
    deliveryQueueUrl: requireEnv('DELIVERY_QUEUE_URL', env),
    eventsQueueUrl: requireEnv('EVENTS_QUEUE_URL', env),
    importQueueUrl: requireEnv('IMPORT_QUEUE_URL', env),
    webhookQueueUrl: requireEnv('WEBHOOK_QUEUE_URL', env),
    scheduler: {
      groupName: requireEnv('SCHEDULE_GROUP', env),
      targetQueueArn: requireEnv('DELIVERY_QUEUE_ARN', env),
      roleArn: requireEnv('SCHEDULER_ROLE_ARN', env),
      ...(env.SCHEDULER_DLQ_ARN && { deadLetterQueueArn: env.SCHEDULER_DLQ_ARN }),
    },
  };
}
