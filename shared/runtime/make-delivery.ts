import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import packageJson from '../../package.json' with { type: 'json' };
import { makeDocumentClient, makeDynamoClient } from '../adapters/dynamodb/client.js';
import { makeDynamoSandboxLedger } from '../adapters/dynamodb/sandbox-ledger.js';
import { makeLinkPreviewReader } from '../adapters/http/link-preview.js';
import { makeWebhookSender } from '../adapters/http/webhook-sender.js';
import { traced } from '../adapters/observability/tracer.js';
import { makeS3Client } from '../adapters/s3/client.js';
import { makeS3MediaBytes, unconfiguredMediaBytes } from '../adapters/s3/s3-media-bytes.js';
import { makeS3MediaUrls, unconfiguredMediaUrls } from '../adapters/s3/s3-media-urls.js';
import { makeEventBridgePostScheduler } from '../adapters/scheduler/post-scheduler.js';
import { makeSqsQueue } from '../adapters/sqs/sqs-queue.js';
import type { ServiceEvent } from '../domain/events.js';
import type { RetryPolicy } from '../domain/retry-policy.js';
import type { Account } from '../domain/tenancy.js';
import { makeConnectorFor } from '../networks/connector-for.js';
import type { Networks } from '../networks/registry.js';
import { makeSandboxConnector } from '../networks/sandbox/index.js';
import type { Connector, LinkPreviewReader } from '../ports/connector.js';
import type { MediaBytes } from '../ports/media-bytes.js';
import type { MediaFetcher } from '../ports/media-fetcher.js';
import type { MediaUrls } from '../ports/media-urls.js';
import type { DeliveryMessage, MessageQueue, PostScheduler } from '../ports/queues.js';
import type { WebhookSender } from '../ports/webhook-sender.js';
import { makeRefreshExpiringTokens } from '../services/accounts/refresh-expiring-tokens.js';
import { makeReconciler } from '../services/delivery/reconcile.js';
import type { MediaImportMessage } from '../services/media/import-media.js';
import type { WebhookDispatchMessage, WebhookRetryPlan } from '../services/webhooks/dispatch.js';
import { makeDeliveryWorker } from '../triggers/delivery-queue.js';
import { makeInvocationLogger } from '../triggers/invocation-logger.js';
import { makeImportQueueWorker } from '../triggers/media-import-queue.js';
import { makeOutboxStreamHandler } from '../triggers/outbox-stream.js';
import { makeWebhookDispatcher } from '../triggers/webhook-dispatch-queue.js';
import { makeFanOutConsumer } from '../triggers/webhook-events-queue.js';
import type { ServiceConfig } from './config.js';
import type { DeliveryConfig } from './delivery-config.js';
import type { ServiceDeps } from './deps.js';
import { makeMediaFetcher } from './media-fetcher.js';
import { tracedConnectorFor, tracedMediaFetcher, tracedWebhookSender } from './traced-network-calls.js';

/** The delivery side's ports: AWS services in a deployment, in-process stand-ins on the local host. */
export interface DeliveryPorts {
  deliveryQueue: MessageQueue<DeliveryMessage>;
  eventsQueue: MessageQueue<ServiceEvent>;
  importQueue: MessageQueue<MediaImportMessage>;
  /** One message per webhook delivery attempt (the fan-out, the outbox and the dispatcher send). */
  webhookQueue: MessageQueue<WebhookDispatchMessage>;
  scheduler: PostScheduler;
  connectorFor(account: Account): Connector | undefined;
  /** Stored media's bytes for a connector's upload (S3 ranged reads; s3rver on the local host). */
  bytes: MediaBytes;
  /** Presigned GETs of stored media, for a network that fetches them itself (the photo network). */
  mediaUrls?: MediaUrls;
  fetchMedia: MediaFetcher;
  /** Reads link cards for the networks whose cards we build (public addresses only). */
  linkPreview?: LinkPreviewReader;
  /** The webhook dispatcher's POST (SSRF-safe; loopback HTTP only on the local host). */
  sendWebhook: WebhookSender;
}

/**
 * Timings production leaves at their defaults (LEASE_MS, CONNECTOR_TIMEOUT_MS, LOOKUP_TIMEOUT_MS in
 * shared/services/delivery/delivery-deps.ts, DEFAULT_RETRY_POLICY); the local host's tests shorten them.
 */
export interface DeliveryTuning {
  leaseMs?: number;
  connectorTimeoutMs?: number;
  lookupTimeoutMs?: number;
  retryPolicy?: RetryPolicy;
  /** When a failed webhook attempt is tried again; about 24 h (`nextWebhookAttempt`) by default. */
  webhookRetryPlan?: WebhookRetryPlan;
}

/** The service's version (package.json), named in every webhook delivery's User-Agent. */
export const SERVICE_VERSION: string = packageJson.version;

/**
 * The handlers of the background pipeline, over the service's stores and the delivery ports: the
 * outbox, the delivery worker, the media importer, the reconciler, the token sweep, the webhook
 * fan-out (the events queue) and the webhook dispatcher (the webhook-delivery queue). The stream's
 * and the queues' are triggers (shared/triggers/): Lambda's event in, the use case called, the
 * partial batch response out; the local host hands them the same events.
 */
export function makeDelivery(service: ServiceDeps, ports: DeliveryPorts, tuning: DeliveryTuning = {}) {
  const { webhookRetryPlan, ...postTuning } = tuning;
  const deps = {
    ...ports,
    // Each call out (a network's, a receiver's, a media URL's) a subsegment where the function
    // traces, a post's annotated with its request's trace id; the call itself elsewhere.
    connectorFor: tracedConnectorFor(ports.connectorFor),
    fetchMedia: tracedMediaFetcher(ports.fetchMedia),
    sendWebhook: tracedWebhookSender(ports.sendWebhook),
    ...postTuning,
    posts: service.posts,
    tenancy: service.tenancy,
    workspaces: service.tenancy,
    // The real networks renew tokens (their OAuth) with the cipher the tokens are sealed with.
    networks: service.networks,
    secrets: service.secrets,
    quotas: service.quotas,
    ...(service.dailyQuotas && { dailyQuotas: service.dailyQuotas }),
    media: service.media,
    storage: service.storage,
    videoProbe: service.videoProbe,
    clock: service.clock,
    logger: service.logger,
    metrics: service.metrics,
  };
  return {
    handleStream: makeOutboxStreamHandler(deps),
    handleDeliveryBatch: makeDeliveryWorker(deps),
    handleImportBatch: makeImportQueueWorker(deps),
    reconcile: makeReconciler(deps),
    /**
     * The daily sweep renewing tokens that expire within a week, and taking each account's daily
     * metrics reading after the renewals, as functions/token-refresher.ts does in AWS.
     */
    refreshTokens: makeRefreshExpiringTokens({ ...deps, accountMetrics: { workspaces: service.tenancy } }),
    handleEventsBatch: makeFanOutConsumer({ ...deps, webhooks: service.webhooks }),
    handleWebhookBatch: makeWebhookDispatcher({
      ...deps,
      webhooks: service.webhooks,
      secrets: service.secrets,
      version: SERVICE_VERSION,
      ...(webhookRetryPlan && { retryPlan: webhookRetryPlan }),
    }),
    /** The reconciler's per-invocation logger (its handler has no batch to hang it on). */
    invocationLogger: makeInvocationLogger(service.logger),
  };
}

/** AWS clients, built once per Lambda module; `networks` are the service's (ServiceDeps.networks). */
export function makeAwsDeliveryPorts(
  config: ServiceConfig,
  delivery: DeliveryConfig,
  networks: Networks,
): DeliveryPorts {
  const sqs = traced(new SQSClient({ region: config.region }));
  const db = makeDocumentClient(
    traced(makeDynamoClient({ region: config.region, endpoint: config.dynamodbEndpoint })),
  );
  return {
    deliveryQueue: makeSqsQueue<DeliveryMessage>(sqs, delivery.deliveryQueueUrl),
    eventsQueue: makeSqsQueue<ServiceEvent>(sqs, delivery.eventsQueueUrl),
    importQueue: makeSqsQueue<MediaImportMessage>(sqs, delivery.importQueueUrl),
    webhookQueue: makeSqsQueue<WebhookDispatchMessage>(sqs, delivery.webhookQueueUrl),
    fetchMedia: makeMediaFetcher(),
    linkPreview: makeLinkPreviewReader(),
    // AWS never allows loopback receivers: the address rules hold in full.
    sendWebhook: makeWebhookSender(),
    scheduler: makeEventBridgePostScheduler(
      traced(new SchedulerClient({ region: config.region })),
      delivery.scheduler,
    ),
    connectorFor: makeConnectorFor({
      sandbox: makeSandboxConnector({ ledger: makeDynamoSandboxLedger(db, config.tables.main) }),
      networks,
    }),
    bytes: config.mediaBucket
      ? makeS3MediaBytes(
          traced(makeS3Client({ region: config.region, endpoint: config.s3Endpoint })),
          config.mediaBucket,
        )
      : unconfiguredMediaBytes(),
    mediaUrls: config.mediaBucket
      ? makeS3MediaUrls(
          makeS3Client({ region: config.region, endpoint: config.s3Endpoint }),
          config.mediaBucket,
        )
      : unconfiguredMediaUrls(),
  };
}
