import { join } from 'node:path';
import type { DynamoCallCounter } from '../../shared/adapters/dynamodb/call-counter.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoSandboxLedger } from '../../shared/adapters/dynamodb/sandbox-ledger.js';
import { makeLinkPreviewReader } from '../../shared/adapters/http/link-preview.js';
import { makeWebhookSender, WEBHOOK_TIMEOUT_MS } from '../../shared/adapters/http/webhook-sender.js';
import { makeS3Client } from '../../shared/adapters/s3/client.js';
import { makeS3MediaBytes, unconfiguredMediaBytes } from '../../shared/adapters/s3/s3-media-bytes.js';
import { makeS3MediaUrls, unconfiguredMediaUrls } from '../../shared/adapters/s3/s3-media-urls.js';
import { isPublicAddress } from '../../shared/domain/address-ranges.js';
import type { ServiceEvent } from '../../shared/domain/events.js';
import type { RetryPolicy } from '../../shared/domain/retry-policy.js';
import { makeConnectorFor } from '../../shared/networks/connector-for.js';
import type { Networks } from '../../shared/networks/registry.js';
import { type LatencyRange, makeSandboxConnector } from '../../shared/networks/sandbox/index.js';
import type { LinkPreviewReader } from '../../shared/ports/connector.js';
import type { MediaFetcher } from '../../shared/ports/media-fetcher.js';
import type { DeliveryMessage, MessageQueue } from '../../shared/ports/queues.js';
import type { WebhookSender } from '../../shared/ports/webhook-sender.js';
import type { ServiceConfig } from '../../shared/runtime/config.js';
import type { ServiceDeps } from '../../shared/runtime/deps.js';
import { makeDelivery } from '../../shared/runtime/make-delivery.js';
import { makeMediaFetcher } from '../../shared/runtime/media-fetcher.js';
import type { SweepReport } from '../../shared/services/accounts/refresh-expiring-tokens.js';
import type { MediaImportMessage } from '../../shared/services/media/import-media.js';
import type { WebhookDispatchMessage, WebhookRetryPlan } from '../../shared/services/webhooks/dispatch.js';
import { outboxAcceptsNewImage } from '../../shared/triggers/outbox-stream.js';
import { DELIVERY_READY_BATCHES } from '../delivery-concurrency.js';
import { type LocalProbe, probedCipher, probedHandler, probedQueue, probedScheduler } from './local-probe.js';
import { makeLocalQueue } from './stand-ins/local-queue.js';
import { makeLocalScheduler } from './stand-ins/local-scheduler.js';
import { failureFields } from './stand-ins/poll-loop.js';
import { makeStreamPoller } from './stand-ins/stream-poller.js';

/** The local host sweeps tokens hourly (AWS: daily); a laptop is often asleep at the daily time. */
export const TOKEN_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface LocalDeliveryOptions {
  /** The sandbox network's simulated latency; its realistic per-network defaults when absent. */
  sandboxLatencyMs?: LatencyRange;
  leaseMs?: number;
  /** How long the worker waits for the network, and for a look-up after no answer (tests shorten them). */
  connectorTimeoutMs?: number;
  lookupTimeoutMs?: number;
  retryPolicy?: RetryPolicy;
  /**
   * How often the reconciler runs (default 5 s): it takes back a post whose worker died once its
   * lease (20 s) runs out, so a shorter interval than AWS's minute is cheap and keeps that prompt.
   */
  reconcileIntervalMs?: number;
  /** How many recent events to keep for inspection (`events()`; default 1000). */
  keepEvents?: number;
  /**
   * When a failed webhook attempt is tried again: about 24 h (`nextWebhookAttempt`) by default;
   * tests pass a short plan so retries come within seconds.
   */
  webhookRetryPlan?: WebhookRetryPlan;
  /**
   * The webhook sender's time limit for the whole response (default 5 s, WEBHOOK_TIMEOUT_MS). For
   * tests only: the service's rule is 5 s.
   */
  webhookTimeoutMs?: number;
  /** The public media fetcher; the SSRF-safe one with the service's limits by default (tests pass one). */
  fetchMedia?: MediaFetcher;
  /** The link card reader; the public-only one (and loopback pages where loopback receivers are allowed) by default. */
  linkPreview?: LinkPreviewReader;
  /**
   * The webhook sender; the SSRF-safe one (loopback receivers as the host allows) by default. The API
   * fuzzer passes one that connects nowhere, as its receivers are whatever hosts it makes up.
   */
  sendWebhook?: WebhookSender;
  /**
   * The real networks the worker publishes to and renews tokens with, in place of the service's
   * (NETWORK_FACTORIES): a test passes a network of its own, faked, without touching the registry.
   */
  networks?: Networks;
  /**
   * How often the token sweep runs (default hourly, and once at start; AWS runs it daily): it renews
   * tokens expiring within a week and disconnects accounts whose renewal is refused. False turns
   * it off (tests that drive it with `refreshTokensNow`).
   */
  tokenRefreshIntervalMs?: number | false;
  /**
   * Delivery batches handled at once (2–1,000): by default DELIVERY_READY_BATCHES, the batches the
   * worker's event source runs at once from the start of a burst in AWS (its pollers kept ready).
   * A slow network call holds up only its own batch.
   */
  deliveryConcurrency?: number;
  /** Counts the sandbox network's own DynamoDB calls (its ledger), apart from the service's (benchmarks). */
  sandboxDynamodbCalls?: DynamoCallCounter;
  /** Told of every queue, schedule and key call and of every handler run (bench/cost.ts). */
  probe?: LocalProbe;
}

export interface LocalDelivery {
  deliveryQueue: ReturnType<typeof makeLocalQueue<DeliveryMessage>>;
  /** The webhook-delivery queue (dispatch messages), for tests that watch it. */
  webhookQueue: ReturnType<typeof makeLocalQueue<WebhookDispatchMessage>>;
  /** The newest events the outbox put on the events queue, oldest first. */
  events(): ServiceEvent[];
  /** Runs the reconciler once; `messagesLost` as at start (every due message is re-sent). */
  reconcileNow(options?: { messagesLost?: boolean }): Promise<void>;
  /** Runs the token sweep once (one run at a time, as on the timer). */
  refreshTokensNow(): Promise<SweepReport>;
  stop(): Promise<void>;
}

/**
 * The events queue, remembering the last `limit` events sent to it: tests look for the events a
 * change produced without a webhook to receive them.
 */
function keepingEvents(
  queue: MessageQueue<ServiceEvent>,
  limit: number,
): MessageQueue<ServiceEvent> & { all(): ServiceEvent[] } {
  const events: ServiceEvent[] = [];
  return {
    async send(event, options) {
      await queue.send(event, options);
      events.push(event);
      if (events.length > limit) events.splice(0, events.length - limit);
    },
    all: () => [...events],
  };
}

/**
 * The delivery pipeline on one machine, with the same handlers as in AWS: the stream poller feeds
 * the outbox, an in-process queue (visibility time-out, redrive to a dead-letter queue) feeds the
 * worker, a persisted scheduler fires scheduled posts even after a restart, and the reconciler runs
 * on a timer. The sandbox network publishes, remembering its posts in the main table. Events go
 * through their own queue to the webhook fan-out, and dispatch messages through the
 * webhook-delivery queue to the dispatcher, whose sender (and only it, here) may POST to loopback
 * receivers over plain HTTP (`http://127.0.0.1:…`, `http://localhost:…`).
 */
export async function startLocalDelivery(
  deps: ServiceDeps,
  config: ServiceConfig & { dynamodbEndpoint: string },
  dataDir: string,
  options: LocalDeliveryOptions = {},
): Promise<LocalDelivery> {
  const clock = deps.clock;
  const { probe } = options;
  // Each queue keeps its messages in the data folder: a restart, crash or SIGKILL loses none.
  const queueJournal = (name: string) => join(dataDir, 'queues', `${name}.jsonl`);
  const sending = <T>(name: string, queue: MessageQueue<T>) =>
    probe ? probedQueue(probe, name, queue) : queue;
  const timed = <E extends { Records: readonly unknown[] }, R>(
    fn: string,
    handler: (event: E) => Promise<R>,
  ) => (probe ? probedHandler(probe, fn, handler) : handler);
  const deadLetters = makeLocalQueue<DeliveryMessage>({
    name: 'delivery-dlq',
    journalFile: queueJournal('delivery-dlq'),
    visibilityTimeoutMs: 30_000,
    maxReceiveCount: Number.MAX_SAFE_INTEGER,
    clock,
    logger: deps.logger,
  });
  const deliveryQueue = makeLocalQueue<DeliveryMessage>({
    name: 'delivery',
    journalFile: queueJournal('delivery'),
    // Longer than the connector's time-out, so a slow network call is not handed to a second worker.
    visibilityTimeoutMs: 90_000,
    maxReceiveCount: 5,
    deadLetter: deadLetters,
    clock,
    logger: deps.logger,
  });
  const events = makeLocalQueue<ServiceEvent>({
    name: 'events',
    journalFile: queueJournal('events'),
    visibilityTimeoutMs: 30_000,
    maxReceiveCount: 5,
    clock,
    logger: deps.logger,
  });
  const eventLog = keepingEvents(events, options.keepEvents ?? 1000);
  const webhookQueue = makeLocalQueue<WebhookDispatchMessage>({
    name: 'webhook-delivery',
    journalFile: queueJournal('webhook-delivery'),
    // Longer than an attempt (5 s) and the reads and writes around it.
    visibilityTimeoutMs: 30_000,
    maxReceiveCount: 5,
    clock,
    logger: deps.logger,
  });
  const importQueue = makeLocalQueue<MediaImportMessage>({
    name: 'media-import',
    journalFile: queueJournal('media-import'),
    visibilityTimeoutMs: 90_000,
    maxReceiveCount: 3,
    clock,
    logger: deps.logger,
  });
  const scheduler = makeLocalScheduler({
    file: join(dataDir, 'scheduler.json'),
    deliver: (message) => sending('delivery', deliveryQueue).send(message),
    clock,
    logger: deps.logger,
  });
  const ledgerClient = makeDynamoClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  options.sandboxDynamodbCalls?.attach(ledgerClient);
  const db = makeDocumentClient(ledgerClient);
  const sandbox = makeSandboxConnector({
    ledger: makeDynamoSandboxLedger(db, config.tables.main),
    now: () => clock.now(),
    ...(options.sandboxLatencyMs && { latencyMs: options.sandboxLatencyMs }),
  });
  const media = makeS3Client({ region: config.region, endpoint: config.s3Endpoint });
  const networks = options.networks ?? deps.networks;
  const delivery = makeDelivery(
    { ...deps, networks, ...(probe && { secrets: probedCipher(probe, deps.secrets) }) },
    {
      deliveryQueue: sending('delivery', deliveryQueue),
      eventsQueue: sending('events', eventLog),
      importQueue: sending('media-import', importQueue),
      scheduler: probe ? probedScheduler(probe, scheduler) : scheduler,
      connectorFor: makeConnectorFor({ sandbox, networks }),
      bytes: config.mediaBucket ? makeS3MediaBytes(media, config.mediaBucket) : unconfiguredMediaBytes(),
      mediaUrls: config.mediaBucket ? makeS3MediaUrls(media, config.mediaBucket) : unconfiguredMediaUrls(),
      fetchMedia: options.fetchMedia ?? makeMediaFetcher(),
      // Pages on loopback (a developer's own, the tests') are read where loopback receivers are allowed.
      linkPreview:
        options.linkPreview ??
        makeLinkPreviewReader(
          deps.webhookReceivers.allowLoopbackHttp
            ? {
                isAllowedAddress: (address) =>
                  isPublicAddress(address) || address === '::1' || address.startsWith('127.'),
                allowPlainHttp: true,
              }
            : {},
        ),
      webhookQueue: sending('webhook-delivery', webhookQueue),
      // The local host, and only it, lets a developer receive events on their laptop (the same
      // switch as registration's: ServiceDeps.webhookReceivers, set by infra/local/host.ts).
      sendWebhook:
        options.sendWebhook ??
        makeWebhookSender({
          allowLoopbackHttp: deps.webhookReceivers.allowLoopbackHttp,
          timeoutMs: options.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS,
        }),
    },
    {
      ...(options.leaseMs && { leaseMs: options.leaseMs }),
      ...(options.connectorTimeoutMs && { connectorTimeoutMs: options.connectorTimeoutMs }),
      ...(options.lookupTimeoutMs && { lookupTimeoutMs: options.lookupTimeoutMs }),
      ...(options.retryPolicy && { retryPolicy: options.retryPolicy }),
      ...(options.webhookRetryPlan && { webhookRetryPlan: options.webhookRetryPlan }),
    },
  );
  const poller = makeStreamPoller({
    endpoint: config.dynamodbEndpoint,
    region: config.region,
    tableName: config.tables.main,
    checkpointFile: join(dataDir, 'streams', `${config.tables.main}.json`),
    handler: timed('outbox', (event) => delivery.handleStream(event)),
    // The stack's filter on the outbox's event source mapping.
    accepts: (record) => outboxAcceptsNewImage(record.dynamodb?.NewImage),
    pollIntervalMs: 50,
    logger: deps.logger,
  });

  deliveryQueue.start(
    timed('deliveryWorker', (event) => delivery.handleDeliveryBatch(event)),
    {
      batchSize: 10,
      pollIntervalMs: 25,
      maxConcurrency: options.deliveryConcurrency ?? DELIVERY_READY_BATCHES,
    },
  );
  importQueue.start(
    timed('mediaImporter', (event) => delivery.handleImportBatch(event)),
    {
      batchSize: 5,
      pollIntervalMs: 50,
    },
  );
  events.start(
    timed('webhookFanOut', (event) => delivery.handleEventsBatch(event)),
    {
      batchSize: 10,
      pollIntervalMs: 25,
    },
  );
  // Five batches of ten at once: a slow receiver holds up only its own batch (5 s at most), and
  // the attempts in flight stay few enough that this one process, which also runs the API, the
  // workers and a developer's receiver, answers each within its 5 s.
  webhookQueue.start(
    timed('webhookDispatcher', (event) => delivery.handleWebhookBatch(event)),
    {
      batchSize: 10,
      pollIntervalMs: 25,
      maxConcurrency: 5,
    },
  );
  await scheduler.start();
  await poller.start();
  let reconciling: Promise<void> = Promise.resolve();
  const reconcileNow = async (reconcileOptions: { messagesLost?: boolean } = {}) => {
    // One run at a time; a failed run (already reported to its caller) does not stop the next.
    reconciling = reconciling
      .catch(() => undefined)
      .then(async () => {
        await delivery.reconcile(reconcileOptions);
      });
    await reconciling;
  };
  // Told once when runs start failing (storage down) and once when they work again, not every 5 s.
  let reconcilerFailing = false;
  const reconcileInBackground = (reconcileOptions: { messagesLost?: boolean } = {}) => {
    reconcileNow(reconcileOptions).then(
      () => {
        if (reconcilerFailing) deps.logger.info('reconciler recovered');
        reconcilerFailing = false;
      },
      (error: unknown) => {
        if (!reconcilerFailing)
          deps.logger.warn('reconciler failed; it runs again on its timer', failureFields(error));
        reconcilerFailing = true;
      },
    );
  };
  // Every due post's message again now, rather than when it is two minutes overdue: the queues'
  // journals hand back what they held, and this also covers a message dead-lettered or a journal
  // lost with its folder. Duplicates are harmless (claims are conditional). Posts a dead worker
  // held come back when their lease ends.
  reconcileInBackground({ messagesLost: true });
  const timer = setInterval(() => reconcileInBackground(), options.reconcileIntervalMs ?? 5_000);

  let sweeping: Promise<SweepReport | undefined> = Promise.resolve(undefined);
  const refreshTokensNow = async (): Promise<SweepReport> => {
    const run = sweeping.catch(() => undefined).then(() => delivery.refreshTokens());
    sweeping = run;
    return run;
  };
  const sweepInBackground = () => {
    refreshTokensNow().catch((error: unknown) => deps.logger.error('token sweep failed', { error }));
  };
  const sweepEvery = options.tokenRefreshIntervalMs ?? TOKEN_SWEEP_INTERVAL_MS;
  const sweepTimer = sweepEvery === false ? undefined : setInterval(sweepInBackground, sweepEvery);
  if (sweepEvery !== false) sweepInBackground();

  return {
    deliveryQueue,
    webhookQueue,
    events: () => eventLog.all(),
    reconcileNow,
    refreshTokensNow,
    async stop() {
      clearInterval(timer);
      clearInterval(sweepTimer);
      await reconciling.catch(() => undefined);
      await sweeping.catch(() => undefined);
      await poller.stop();
      await scheduler.stop();
      await deliveryQueue.stop();
      await importQueue.stop();
      await events.stop();
      await webhookQueue.stop();
      await deadLetters.stop();
      db.destroy();
      media.destroy();
    },
  };
}
