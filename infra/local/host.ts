import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { S3Event } from 'aws-lambda';
import type { DynamoCallCounter } from '../../shared/adapters/dynamodb/call-counter.js';
import {
  makeDocumentClient,
  makeDynamoClient,
  withDynamoClientsObserved,
} from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { localTableNames } from '../../shared/adapters/dynamodb/tables.js';
import { makeDynamoUserStore } from '../../shared/adapters/dynamodb/user-store.js';
import { makePowertoolsLogger } from '../../shared/adapters/observability/powertools-logger.js';
import { makeDashboardHandler } from '../../shared/dashboard/dashboard-handler.js';
import { makeFallbackHandler } from '../../shared/http/fallback-handler.js';
import type { Operation } from '../../shared/http/operation.js';
import { type ApiHandler, makeOperationHandler } from '../../shared/http/operation-handler.js';
import { makeInProcessCatalogFirstHandler } from '../../shared/mcp/catalog-first/in-process.js';
import type { Networks } from '../../shared/networks/registry.js';
import { operations as registry } from '../../shared/operations/registry.js';
import type { Clock } from '../../shared/ports/clock.js';
import { noMetrics } from '../../shared/ports/metrics.js';
import type { UserStore } from '../../shared/ports/user-store.js';
import type { ServiceConfig } from '../../shared/runtime/config.js';
import type { ServiceDeps } from '../../shared/runtime/deps.js';
import { makeDashboardDeps } from '../../shared/runtime/make-dashboard-deps.js';
import { makeDeps, type Observability } from '../../shared/runtime/make-deps.js';
import { mediaStorageOrigin } from '../../shared/runtime/media-storage-origin.js';
import {
  type AppCredentialsSource,
  envAppCredentials,
  loadNetworkEndpoints,
  type NetworkEndpoints,
} from '../../shared/runtime/network-config.js';
import { dailyQuotaOverridesOf } from '../../shared/runtime/quota-settings.js';
import { secureCookiesFor } from '../../shared/runtime/secure-cookies.js';
import { makeMediaUploadedHandler } from '../../shared/triggers/media-uploaded.js';
import { DEFAULT_AUTH_FAILURES_PER_MINUTE, makeAuthFailureLimiter } from './auth-failure-limiter.js';
import { type LocalDelivery, type LocalDeliveryOptions, startLocalDelivery } from './delivery-host.js';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.js';
import { acquireFolderLock } from './folder-lock.js';
import { removeHostFile, writeHostFile } from './host-file.js';
import { createLocalApiServer } from './http-server.js';
import { type LocalProbe, probedHandler } from './local-probe.js';
import { startS3Local } from './s3-local.js';
import { makeLocalSecretCipher, SECRET_KEY_FILE_NAME } from './stand-ins/local-secret-cipher.js';

/**
 * The same Powertools lines as in Lambda; EMF metrics are off here (nothing reads them locally).
 */
function makeLocalObservability(): Observability {
  return { logger: makePowertoolsLogger(), metrics: noMetrics };
}

/** The HTTP server's failed-authentication limiter, unless the options turn it off. */
function authFailureLimit(options: LocalHostOptions, clock: Clock) {
  const failuresPerMinute = options.authFailuresPerMinute ?? DEFAULT_AUTH_FAILURES_PER_MINUTE;
  if (failuresPerMinute === false) return {};
  return { authFailures: makeAuthFailureLimiter({ failuresPerMinute, clock }) };
}

export const LOCAL_REGION = 'us-east-1';
export const LOCAL_MEDIA_BUCKET = 'media';
/** The data folder's lock file: the pid of the host using it. */
export const HOST_LOCK_FILE = 'local-host.pid';

export interface LocalHostOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** Reuse a DynamoDB Local that is already running (tests); else start one that persists in dataDir. */
  dynamodbEndpoint?: string;
  /** Table name prefix: lets several hosts share one DynamoDB Local (tests). */
  tablePrefix?: string;
  authCacheTtlSeconds?: number;
  /**
   * 401 answers a client address may get per minute; past them its requests with a missing or
   * unproven key are refused with 429 until the minute ends (auth-failure-limiter.ts). Default
   * 30; false turns the limit off.
   */
  authFailuresPerMinute?: number | false;
  /**
   * How long a request's body may take to arrive after its headers before it is answered 408
   * (LOCAL_BODY_TIMEOUT_SECONDS); http-server.ts's DEFAULT_BODY_TIMEOUT_MS by default.
   */
  bodyTimeoutMs?: number;
  clock?: Clock;
  /** Where logs and metrics go; Powertools' logger (metrics off) by default, a recorder in tests. */
  observability?: Observability;
  /**
   * Counts the service's DynamoDB calls (the stores of the API, outbox, worker and webhooks) for
   * the benchmarks and the round-trip tests; the sandbox network's own are its option's.
   */
  dynamodbCalls?: DynamoCallCounter;
  /**
   * Told of every S3 request, queue, schedule and key call and of every background handler's run
   * (bench/cost.ts); the delivery options' probe is this one.
   */
  probe?: LocalProbe;
  /** Operations to mount; the whole registry by default. */
  operations?: readonly Operation[];
  /** The delivery pipeline (stream → outbox → queue → worker → sandbox); false leaves posts where they are. */
  delivery?: LocalDeliveryOptions | false;
  /**
   * Accept webhook receivers at `http://127.0.0.1:<port>` and `http://localhost:<port>`, so a
   * developer receives events on their laptop. Default true: the local host is the only place
   * this is allowed; a test turns it off to see the deployed rule.
   */
  allowLoopbackReceivers?: boolean;
  /**
   * Where the networks' connectors and OAuth go: the environment's X_API_URL… by default (the
   * real hosts unless set); tests and FAKE_NETWORKS point them at the fakes.
   */
  networkEndpoints?: NetworkEndpoints;
  /** The networks' app credentials: `<APP>_CLIENT_ID` / `_SECRET` from the environment by default. */
  appCredentials?: AppCredentialsSource;
  /** The base URL the OAuth callback is built on; this host's own address by default. */
  publicBaseUrl?: string;
  /** The real networks; by default those of NETWORK_FACTORIES over `networkEndpoints` (tests pass their own). */
  networks?: Networks;
}

export interface LocalHost {
  baseUrl: string;
  port: number;
  config: ServiceConfig;
  deps: ServiceDeps;
  /** The dashboard's people (users, sessions, one-time links), on the host's tables. */
  users: UserStore;
  s3Endpoint: string;
  /** Present unless delivery was turned off. */
  delivery?: LocalDelivery;
  /** The DynamoDB Local this host started (none when it was handed an endpoint). */
  dynamodb?: DynamoDbLocal;
  stop(): Promise<void>;
}

/**
 * The whole service on one machine: DynamoDB Local, s3rver, and an HTTP server that invokes
 * each operation's own Lambda handler with the API Gateway event AWS would send.
 */
export async function startLocalHost(options: LocalHostOptions): Promise<LocalHost> {
  mkdirSync(options.dataDir, { recursive: true });
  // One host per data folder: two would run two JVMs on one database and two sets of queues.
  const folderLock = acquireFolderLock(join(options.dataDir, HOST_LOCK_FILE), 'A local host');
  const stoppers: (() => Promise<void>)[] = [async () => folderLock.release()];
  const stop = async () => {
    for (const stopOne of stoppers.splice(0).reverse()) await stopOne();
  };
  try {
    const observability = options.observability ?? makeLocalObservability();
    let dynamodbEndpoint = options.dynamodbEndpoint;
    let dynamodb: DynamoDbLocal | undefined;
    if (!dynamodbEndpoint) {
      dynamodb = await startDynamoDbLocal({
        dbPath: join(options.dataDir, 'dynamodb'),
        // Java killed or crashed: the host starts it again, and the service heals by itself.
        restartWhenItDies: true,
        logger: observability.logger,
      });
      stoppers.push(dynamodb.stop);
      dynamodbEndpoint = dynamodb.endpoint;
    }
    // Uploads confirm themselves through the same trigger as the bucket notification's in AWS; it
    // needs the service's dependencies, which exist only once storage is up.
    let onObjectCreated: ((event: S3Event) => Promise<void>) | undefined;
    const s3 = await startS3Local({
      directory: join(options.dataDir, 's3'),
      buckets: [LOCAL_MEDIA_BUCKET],
      onObjectCreated: async (event) => onObjectCreated?.(event),
      ...(options.probe && { onRequest: (method: string) => options.probe?.call('s3', method) }),
      logger: observability.logger,
    });
    stoppers.push(s3.stop);

    const tables = localTableNames(options.tablePrefix ?? 'local-');
    const admin = makeDynamoClient({ region: LOCAL_REGION, endpoint: dynamodbEndpoint });
    await ensureTables(admin, tables);
    admin.destroy();

    const config: ServiceConfig = {
      region: LOCAL_REGION,
      dynamodbEndpoint,
      tables,
      authCacheTtlSeconds: options.authCacheTtlSeconds ?? 30,
      mediaBucket: LOCAL_MEDIA_BUCKET,
      s3Endpoint: s3.endpoint,
      networkEndpoints: options.networkEndpoints ?? loadNetworkEndpoints(process.env),
      ...dailyQuotaOverridesOf(process.env),
    };
    const buildDeps = () =>
      makeDeps(
        config,
        options.clock,
        observability,
        makeLocalSecretCipher({ keyFile: join(options.dataDir, SECRET_KEY_FILE_NAME) }),
        options.appCredentials ?? envAppCredentials(process.env),
      );
    const counter = options.dynamodbCalls;
    const deps: ServiceDeps = {
      ...(counter ? withDynamoClientsObserved((client) => counter.attach(client), buildDeps) : buildDeps()),
      webhookReceivers: { allowLoopbackHttp: options.allowLoopbackReceivers ?? true },
      // A connect's redirectUri may be http://127.0.0.1 or http://localhost here, as receivers may.
      oauthRedirects: { allowLoopbackHttp: options.allowLoopbackReceivers ?? true },
      ...(options.networks && { networks: options.networks }),
    };
    const autoConfirm = makeMediaUploadedHandler(deps);
    onObjectCreated = options.probe
      ? probedHandler(options.probe, 'mediaUploaded', autoConfirm)
      : autoConfirm;
    let delivery: LocalDelivery | undefined;
    if (options.delivery !== false) {
      delivery = await startLocalDelivery(deps, { ...config, dynamodbEndpoint }, options.dataDir, {
        ...options.delivery,
        ...(options.probe && { probe: options.probe }),
      });
      stoppers.push(delivery.stop);
    }
    const users = makeDynamoUserStore(
      makeDocumentClient(makeDynamoClient({ region: LOCAL_REGION, endpoint: dynamodbEndpoint })),
      tables,
    );
    const operations = options.operations ?? registry;
    const handlers = new Map<Operation, ApiHandler>(
      operations.map((op) => [op, makeOperationHandler(op, deps)]),
    );
    const server = createLocalApiServer(
      {
        operations,
        handlerFor: (operation) => handlers.get(operation) as ApiHandler,
        fallback: makeFallbackHandler(operations),
        // The MCP function's handler, its catalog built here at start rather than at synth.
        mcp: makeInProcessCatalogFirstHandler(operations, deps),
        dashboard: makeDashboardHandler(
          makeDashboardDeps({
            services: deps,
            users,
            // Plain http on this host, unless it is reached through an https address of its own.
            secureCookies: secureCookiesFor(options.publicBaseUrl ?? 'http://127.0.0.1'),
            // s3rver's loopback address: the composer's script PUTs uploads straight to it.
            mediaStorageOrigin: mediaStorageOrigin(config),
            logger: deps.logger,
          }),
        ),
      },
      {
        logger: deps.logger,
        metrics: deps.metrics,
        ...authFailureLimit(options, deps.clock),
        ...(options.bodyTimeoutMs !== undefined && { bodyTimeoutMs: options.bodyTimeoutMs }),
      },
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, '127.0.0.1', () => resolve());
    });
    stoppers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const port = (server.address() as AddressInfo).port;
    const baseUrl = `http://127.0.0.1:${port}`;
    // Known only now that the server listens; the handlers read it per request.
    deps.publicBaseUrl = options.publicBaseUrl ?? baseUrl;
    // The dashboard's origins (loopback by address and by name, its public address if it has one):
    // the composer's script PUTs uploads from there to s3rver, which is another origin.
    await s3.allowBrowserUploadsFrom([
      baseUrl,
      `http://localhost:${port}`,
      ...(options.publicBaseUrl ? [new URL(options.publicBaseUrl).origin] : []),
    ]);
    writeHostFile(options.dataDir, {
      pid: process.pid,
      baseUrl,
      region: LOCAL_REGION,
      dynamodbEndpoint,
      s3Endpoint: s3.endpoint,
      mediaBucket: LOCAL_MEDIA_BUCKET,
      tables,
    });
    stoppers.push(async () => removeHostFile(options.dataDir));
    return {
      baseUrl,
      port,
      config,
      deps,
      users,
      s3Endpoint: s3.endpoint,
      ...(delivery && { delivery }),
      ...(dynamodb && { dynamodb }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
