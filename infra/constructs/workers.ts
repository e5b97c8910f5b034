import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAIN_TABLE, RATE_LIMITS_TABLE } from '../../shared/adapters/dynamodb/tables.js';
import { OUTBOX_ENTITIES } from '../../shared/services/delivery/outbox-entities.js';
import { DELIVERY_MINIMUM_POLLERS } from '../delivery-concurrency.js';
import { decryptStatement, encryptStatement } from './http-api.js';
import type { MediaStorage } from './media-storage.js';
import type { NetworkApps } from './network-apps.js';
import type { PostScheduling } from './post-scheduling.js';
import type { ServiceQueues } from './queues.js';
import { ServiceFunction } from './service-function.js';
import type { DataTables } from './tables.js';
import { WORKER_TIMEOUTS } from './timeouts.js';

/** Retries of a failing stream record before it goes to the outbox's dead-letter queue. */
export const OUTBOX_RETRY_ATTEMPTS = 10;

/**
 * What Lambda's poller needs to read a DynamoDB stream, granted on that one stream's ARN. CDK's
 * DynamoEventSource would add ListStreams on "*"; a mapping given its stream's ARN has no streams to
 * list, so ListStreams is named here with the others, on this stream only (as CDK's TableV2 grants
 * and the Serverless Framework do).
 */
export const STREAM_READ_ACTIONS = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
] as const;

export interface ServiceWorkersProps {
  data: DataTables;
  queues: ServiceQueues;
  scheduling: PostScheduling;
  media: MediaStorage;
  /** What every function's config needs (shared/runtime/config.ts): the tables and MEDIA_BUCKET. */
  environment: Readonly<Record<string, string>>;
  /** The networks' app secrets and endpoints, for the functions that call the networks. */
  networkApps: NetworkApps;
  /**
   * The key of stored secrets: the dispatcher alone may decrypt webhook signing secrets with it;
   * the functions that call the networks encrypt and decrypt OAuth tokens (purpose oauth-token).
   */
  secretsKey: kms.IKey;
}

/**
 * The functions behind the API (docs/architecture.md#data-flow, docs/delivery.md, docs/media.md), each with
 * its trigger and exactly the grants its code path uses:
 * - `outbox`: the main table's stream → delivery, events and import queues; post schedules;
 * - `deliveryWorker`: the delivery queue → the networks; posts, accounts, quotas, media;
 * - `reconciler`: every minute → expired leases (looked up on the networks) and lost messages;
 * - `tokenRefresher`: daily → refreshes the OAuth tokens that expire within a week;
 * - `mediaImporter`: the import queue → fetches media imported by URL into the bucket;
 * - `mediaUploaded`: the bucket's object-created notifications → confirms uploads;
 * - `webhookFanOut`: the events queue → the event feed, one delivery per subscribed webhook, and
 *   a dispatch message for each on the webhook-delivery queue;
 * - `webhookDispatcher`: the webhook-delivery queue → one signed POST per message (KMS Decrypt of
 *   webhook signing secrets, and nothing else of the key), retries back on its own queue.
 * The three that call the networks read the apps' secrets (those five only) and encrypt and decrypt
 * OAuth tokens (kms conditioned on purpose oauth-token: a refresh rotates and stores them again).
 */
export class ServiceWorkers extends Construct {
  readonly outbox: ServiceFunction;
  readonly deliveryWorker: ServiceFunction;
  readonly reconciler: ServiceFunction;
  readonly mediaImporter: ServiceFunction;
  readonly mediaUploaded: ServiceFunction;
  readonly webhookFanOut: ServiceFunction;
  readonly webhookDispatcher: ServiceFunction;
  readonly tokenRefresher: ServiceFunction;
  readonly reconcilerRule: events.Rule;
  readonly tokenRefresherRule: events.Rule;

  constructor(scope: Construct, id: string, props: ServiceWorkersProps) {
    super(scope, id);
    const { data, queues, scheduling, media } = props;
    const sendTo = (fn: ServiceFunction, ...targetQueues: sqs.IQueue[]) =>
      iam.Grant.addToPrincipal({
        grantee: fn.role,
        actions: ['sqs:SendMessage'],
        resourceArns: targetQueues.map((queue) => queue.queueArn),
      });

    // What shared/runtime/delivery-config.ts reads, for every function built by deliveryFromEnv().
    const deliveryEnvironment = {
      ...props.environment,
      DELIVERY_QUEUE_URL: queues.delivery.queue.queueUrl,
      DELIVERY_QUEUE_ARN: queues.delivery.queue.queueArn,
      EVENTS_QUEUE_URL: queues.events.queue.queueUrl,
      IMPORT_QUEUE_URL: queues.mediaImport.queue.queueUrl,
      WEBHOOK_QUEUE_URL: queues.webhookDelivery.queue.queueUrl,
      SCHEDULE_GROUP: scheduling.groupName,
      SCHEDULER_ROLE_ARN: scheduling.role.roleArn,
      SCHEDULER_DLQ_ARN: scheduling.deadLetterQueue.queueArn,
    };

    // The functions that call the networks: with the apps' credentials and the endpoints, and the
    // tokens of the accounts (decrypted to call, encrypted again when a refresh rotates them).
    const networkEnvironment = {
      ...props.networkApps.environment,
      SECRETS_KEY_ARN: props.secretsKey.keyArn,
    };
    const callsNetworks = (fn: ServiceFunction) => {
      props.networkApps.grantRead(fn.role);
      fn.role.addToPrincipalPolicy(encryptStatement(props.secretsKey, 'oauth-token'));
      fn.role.addToPrincipalPolicy(decryptStatement(props.secretsKey, 'oauth-token'));
    };

    // The outbox. Order matters per post, so a failing record stops its shard's batch (the handler
    // reports it, Lambda retries from there, no bisecting); after OUTBOX_RETRY_ATTEMPTS the record
    // goes to the outbox's dead-letter queue and the shard moves on (the reconciler re-drives posts
    // whose message was lost). It touches no table: the stream record carries the images it needs.
    this.outbox = new ServiceFunction(this, 'Outbox', {
      entry: 'outbox',
      description:
        'The main table stream (transactional outbox): delivery messages, schedules, events, requested webhook dispatches.',
      memorySize: 512,
      timeout: WORKER_TIMEOUTS.outbox,
      environment: deliveryEnvironment,
    });
    const mainTable = data.tableOf(MAIN_TABLE);
    if (!mainTable.tableStreamArn) throw new Error('The main table must have its stream (the outbox).');
    mainTable.grantStream(this.outbox.role, ...STREAM_READ_ACTIONS);
    this.outbox.function.addEventSourceMapping('MainTableStream', {
      eventSourceArn: mainTable.tableStreamArn,
      // From the oldest record the stream still holds: nothing written is left without its effects.
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      bisectBatchOnError: false,
      retryAttempts: OUTBOX_RETRY_ATTEMPTS,
      reportBatchItemFailures: true,
      onFailure: new SqsDlq(queues.outboxFailures),
      // Only the changes the outbox acts on invoke it: a post's two feed events, the sandbox's
      // ledger and the like are dropped by Lambda before any invocation is spent on them.
      filters: [
        lambda.FilterCriteria.filter({
          dynamodb: { NewImage: { entity: { S: lambda.FilterRule.or(...OUTBOX_ENTITIES) } } },
        }),
      ],
    });
    sendTo(
      this.outbox,
      queues.delivery.queue,
      queues.events.queue,
      queues.mediaImport.queue,
      queues.webhookDelivery.queue,
    );
    scheduling.grantManageSchedules(this.outbox.role);

    // The delivery worker. Batches of 10 handled in parallel, each message settled on its own. Its
    // event source keeps pollers ready (provisioned mode), so a burst of posts due together starts
    // at once instead of five batches first (infra/delivery-concurrency.ts).
    this.deliveryWorker = new ServiceFunction(this, 'DeliveryWorker', {
      entry: 'delivery-worker',
      description: 'The delivery queue: claims each due post and publishes it to its network.',
      // URL media are fetched and held in memory before they are stored (videos up to 1 GiB).
      memorySize: 2048,
      timeout: WORKER_TIMEOUTS.deliveryWorker,
      environment: { ...deliveryEnvironment, ...networkEnvironment },
    });
    this.deliveryWorker.function.addEventSource(
      new SqsEventSource(queues.delivery.queue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        provisionedPollerConfig: { minimumPollers: DELIVERY_MINIMUM_POLLERS },
      }),
    );
    data.grantReadWriteData(this.deliveryWorker.role, [MAIN_TABLE, RATE_LIMITS_TABLE]);
    // It puts early messages back, with a delay, until they are due.
    sendTo(this.deliveryWorker, queues.delivery.queue);
    media.grantTenantObjects(this.deliveryWorker.role, ['s3:PutObject', 's3:GetObject']);
    callsNetworks(this.deliveryWorker);

    // The reconciler, every minute. A failed run is not retried: the next minute runs anyway. It
    // asks the network whether a post taken back from a dead worker was published, with the
    // account's token, which it may have to refresh first.
    this.reconciler = new ServiceFunction(this, 'Reconciler', {
      entry: 'reconciler',
      description: 'Every minute: recovers expired delivery leases and re-drives lost messages.',
      memorySize: 512,
      timeout: WORKER_TIMEOUTS.reconciler,
      retryAttempts: 0,
      environment: { ...deliveryEnvironment, ...networkEnvironment },
    });
    this.reconcilerRule = new events.Rule(this, 'ReconcilerSchedule', {
      description: 'Runs the delivery reconciler every minute',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.reconciler.function, { retryAttempts: 0 })],
    });
    data.grantReadWriteData(this.reconciler.role, [MAIN_TABLE]);
    sendTo(this.reconciler, queues.delivery.queue);
    callsNetworks(this.reconciler);

    // The token refresher, daily: refreshes ahead of expiry the tokens the delivery path would
    // otherwise refresh at the last minute, and disconnects the accounts whose refresh is refused
    // (the account.disconnected event follows through the table's stream). Lambda's own two retries
    // of a failed run apply: the sweep is idempotent (each replacement is conditional on the
    // tokens' version).
    this.tokenRefresher = new ServiceFunction(this, 'TokenRefresher', {
      entry: 'token-refresher',
      description: 'Daily: refreshes the OAuth tokens of connected accounts that expire within a week.',
      memorySize: 512,
      timeout: WORKER_TIMEOUTS.tokenRefresher,
      // The service config and the networks; it sends to no queue (shared/runtime/token-refresher-from-env.ts).
      environment: { ...props.environment, ...networkEnvironment },
    });
    this.tokenRefresherRule = new events.Rule(this, 'TokenRefresherSchedule', {
      description: 'Runs the OAuth token refresher once a day',
      schedule: events.Schedule.cron({ minute: '17', hour: '3' }),
      targets: [new targets.LambdaFunction(this.tokenRefresher.function)],
    });
    data.grantReadWriteData(this.tokenRefresher.role, [MAIN_TABLE]);
    callsNetworks(this.tokenRefresher);

    // The media importer: one import per invocation (each may hold up to 1 GiB in memory).
    this.mediaImporter = new ServiceFunction(this, 'MediaImporter', {
      entry: 'media-importer',
      description: 'The media import queue: fetches media imported by URL and stores it.',
      memorySize: 2048,
      timeout: WORKER_TIMEOUTS.mediaImporter,
      environment: deliveryEnvironment,
    });
    this.mediaImporter.function.addEventSource(
      new SqsEventSource(queues.mediaImport.queue, { batchSize: 1, reportBatchItemFailures: true }),
    );
    data.grantReadWriteData(this.mediaImporter.role, [MAIN_TABLE]);
    media.grantTenantObjects(this.mediaImporter.role, ['s3:PutObject']);

    // Uploads confirm themselves (the confirm call is optional).
    this.mediaUploaded = new ServiceFunction(this, 'MediaUploaded', {
      entry: 'media-uploaded',
      description: 'The media bucket object-created notification: confirms uploads.',
      memorySize: 512,
      timeout: WORKER_TIMEOUTS.mediaUploaded,
      environment: { ...props.environment },
    });
    media.notifyOnObjectCreated(this.mediaUploaded.function);
    data.grantReadWriteData(this.mediaUploaded.role, [MAIN_TABLE]);
    media.grantTenantObjects(this.mediaUploaded.role, ['s3:GetObject']);

    // The webhook fan-out: batches of 10 events, handled at once; each event's steps are idempotent.
    this.webhookFanOut = new ServiceFunction(this, 'WebhookFanOut', {
      entry: 'webhook-fan-out',
      description: 'The events queue: the event feed and one delivery per subscribed webhook.',
      memorySize: 512,
      timeout: WORKER_TIMEOUTS.webhookFanOut,
      environment: deliveryEnvironment,
    });
    this.webhookFanOut.function.addEventSource(
      new SqsEventSource(queues.events.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );
    data.grantReadWriteData(this.webhookFanOut.role, [MAIN_TABLE]);
    sendTo(this.webhookFanOut, queues.webhookDelivery.queue);

    // The webhook dispatcher: batches of 10 attempts, handled at once, so a slow receiver (5 s at
    // most) never holds up another. It decrypts signing secrets, and only those: the grant is
    // conditioned on the encryption context's purpose (shared/ports/secret-cipher.ts).
    this.webhookDispatcher = new ServiceFunction(this, 'WebhookDispatcher', {
      entry: 'webhook-dispatcher',
      description: 'The webhook-delivery queue: signs and POSTs each delivery; retries wait in the queue.',
      memorySize: 512,
      timeout: WORKER_TIMEOUTS.webhookDispatcher,
      environment: { ...deliveryEnvironment, SECRETS_KEY_ARN: props.secretsKey.keyArn },
    });
    this.webhookDispatcher.function.addEventSource(
      new SqsEventSource(queues.webhookDelivery.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );
    data.grantReadWriteData(this.webhookDispatcher.role, [MAIN_TABLE]);
    // Retries, and early messages put back until they are due.
    sendTo(this.webhookDispatcher, queues.webhookDelivery.queue);
    iam.Grant.addToPrincipal({
      grantee: this.webhookDispatcher.role,
      actions: ['kms:Decrypt'],
      resourceArns: [props.secretsKey.keyArn],
      conditions: { StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-signing-secret' } },
    });
  }

  /** Every function of this construct. */
  get functions(): readonly ServiceFunction[] {
    return [
      this.outbox,
      this.deliveryWorker,
      this.reconciler,
      this.mediaImporter,
      this.mediaUploaded,
      this.webhookFanOut,
      this.webhookDispatcher,
      this.tokenRefresher,
    ];
  }
}
