import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { visibilityTimeoutFor, WORKER_TIMEOUTS } from './timeouts.js';

/** Receives before a message is set aside: a poison message stops costing work after five tries. */
export const MAX_RECEIVE_COUNT = 5;

/** Dead letters are kept as long as SQS allows, for an operator to inspect and redrive. */
const DEAD_LETTER_RETENTION = Duration.days(14);

/** Our defaults for every queue: SQS-managed encryption, TLS only, names generated per stack. */
const queueDefaults: Pick<sqs.QueueProps, 'encryption' | 'enforceSSL'> = {
  encryption: sqs.QueueEncryption.SQS_MANAGED,
  enforceSSL: true,
};

export interface WorkQueueProps {
  /** The timeout of the function that consumes the queue: the visibility timeout is six times it. */
  consumerTimeout: Duration;
}

/** A standard queue with its own dead-letter queue (after MAX_RECEIVE_COUNT receives). */
export class WorkQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      ...queueDefaults,
      retentionPeriod: DEAD_LETTER_RETENTION,
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...queueDefaults,
      visibilityTimeout: visibilityTimeoutFor(props.consumerTimeout),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
  }
}

/**
 * The service's queues (docs/architecture.md#data-flow):
 * - `delivery`: one message per post due for delivery (the outbox, Scheduler, the reconciler and the
 *   worker itself, holding early messages, send to it; the delivery worker consumes it);
 * - `events`: service events (post.published, …) from the outbox, consumed by the webhook fan-out
 *   (the event feed, one delivery per subscribed webhook);
 * - `mediaImport`: media imported by URL, fetched by the media importer;
 * - `webhookDelivery`: one message per webhook delivery attempt (the fan-out, the outbox and the
 *   dispatcher send; the dispatcher consumes), re-sent with a delay of at most 900 s a hop until
 *   the next attempt is due;
 * - `outboxFailures`: where the stream consumer sets aside a record it failed on too often (the
 *   stream's own dead-letter destination: it holds the record's shard and sequence numbers).
 */
export class ServiceQueues extends Construct {
  readonly delivery: WorkQueue;
  readonly events: WorkQueue;
  readonly mediaImport: WorkQueue;
  readonly webhookDelivery: WorkQueue;
  readonly outboxFailures: sqs.Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.delivery = new WorkQueue(this, 'Delivery', { consumerTimeout: WORKER_TIMEOUTS.deliveryWorker });
    this.events = new WorkQueue(this, 'Events', { consumerTimeout: WORKER_TIMEOUTS.webhookFanOut });
    this.mediaImport = new WorkQueue(this, 'MediaImport', {
      consumerTimeout: WORKER_TIMEOUTS.mediaImporter,
    });
    this.webhookDelivery = new WorkQueue(this, 'WebhookDelivery', {
      consumerTimeout: WORKER_TIMEOUTS.webhookDispatcher,
    });
    this.outboxFailures = new sqs.Queue(this, 'OutboxFailures', {
      ...queueDefaults,
      retentionPeriod: DEAD_LETTER_RETENTION,
    });
  }

  /** Every work queue. */
  get workQueues(): readonly WorkQueue[] {
    return [this.delivery, this.events, this.mediaImport, this.webhookDelivery];
  }

  /** Every queue that only holds what failed, named: each work queue's, and the outbox's. */
  get deadLetterQueues(): readonly { name: string; queue: sqs.Queue }[] {
    return [
      ...this.workQueues.map((work) => ({ name: work.node.id, queue: work.deadLetterQueue })),
      { name: this.outboxFailures.node.id, queue: this.outboxFailures },
    ];
  }
}
