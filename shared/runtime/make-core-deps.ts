import { makeDynamoAccountQuotas } from '../adapters/dynamodb/account-quotas.js';
import { makeDocumentClient, makeDynamoClient } from '../adapters/dynamodb/client.js';
import { makeDynamoMediaStore } from '../adapters/dynamodb/media-store.js';
import { makeDynamoOAuthStateStore } from '../adapters/dynamodb/oauth-state-store.js';
import { makeDynamoPostStore } from '../adapters/dynamodb/post-store.js';
import { makeDynamoRateLimiter } from '../adapters/dynamodb/rate-limiter.js';
import { makeDynamoTenancyStore } from '../adapters/dynamodb/tenancy-store.js';
import { makeDynamoWebhookStore } from '../adapters/dynamodb/webhook-store.js';
import { makeUnconfiguredCipher } from '../adapters/kms/unconfigured-cipher.js';
import { makePowertoolsLogger } from '../adapters/observability/powertools-logger.js';
import { makePowertoolsMetrics } from '../adapters/observability/powertools-metrics.js';
import { traced } from '../adapters/observability/tracer.js';
import { makeUnconfiguredStorage } from '../adapters/s3/unconfigured-storage.js';
import { makeUnconfiguredVideoProbe } from '../adapters/video-probe/unconfigured-video-probe.js';
import { withQuotaOverrides } from '../domain/account-quotas.js';
import { type Clock, systemClock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { Metrics } from '../ports/metrics.js';
import { makeAuthenticator } from '../services/authenticate.js';
import { loadConfig, type ServiceConfig } from './config.js';
import type { ServiceDeps } from './deps.js';
import type { DepsPart, DepsParts } from './deps-parts.js';
import { envAppCredentials } from './network-config.js';

export interface Observability {
  logger: Logger;
  metrics: Metrics;
}

/** Powertools' logger and metrics, configured from the environment (POWERTOOLS_*, LOG_LEVEL). */
export function makeObservability(): Observability {
  return { logger: makePowertoolsLogger(), metrics: makePowertoolsMetrics() };
}

/**
 * What a function has when it imports no part: storage and the cipher answer 503 (as a deployment
 * without a bucket or key does), no app credentials and no network clients. A function is granted
 * S3, KMS or the apps' secrets only for the resources that bring their part, so it could not use
 * them without it either.
 */
function withoutParts(): DepsParts {
  return {
    storage: makeUnconfiguredStorage(),
    videoProbe: makeUnconfiguredVideoProbe(),
    secrets: makeUnconfiguredCipher(),
    appCredentials: envAppCredentials({}),
    networks: new Map(),
  };
}

/** The DynamoDB adapters every function uses (or DynamoDB Local, when the config names an endpoint), with the parts given. */
export function makeCoreDeps(
  config: ServiceConfig,
  parts: Partial<DepsParts>,
  clock: Clock = systemClock,
  observability: Observability = makeObservability(),
): ServiceDeps {
  const db = makeDocumentClient(
    traced(makeDynamoClient({ region: config.region, endpoint: config.dynamodbEndpoint })),
  );
  const tenancy = makeDynamoTenancyStore(db, config.tables.main);
  return {
    ...withoutParts(),
    ...parts,
    clock,
    tenancy,
    posts: makeDynamoPostStore(db, config.tables),
    media: makeDynamoMediaStore(db, config.tables.main),
    quotas: makeDynamoAccountQuotas(db, config.tables.rateLimits),
    ...(config.dailyQuotaOverrides && { dailyQuotas: withQuotaOverrides(config.dailyQuotaOverrides) }),
    rateLimiter: makeDynamoRateLimiter(db, config.tables.rateLimits, clock),
    authenticator: makeAuthenticator({
      tenancy,
      clock,
      cacheTtlMs: config.authCacheTtlSeconds * 1000,
      logger: observability.logger,
    }),
    webhooks: makeDynamoWebhookStore(db, config.tables.main, clock),
    // Deployments never accept loopback receivers; only the local host turns this on.
    webhookReceivers: { allowLoopbackHttp: false },
    ...(config.publicBaseUrl && { publicBaseUrl: config.publicBaseUrl }),
    oauthRedirects: { allowLoopbackHttp: false },
    oauthStates: makeDynamoOAuthStateStore(db, config.tables.main),
    ...observability,
  };
}

/**
 * A Lambda's dependencies, from its environment, with only the parts it imports: what the
 * generated per-operation entries call (infra/operation-entries.ts). Config is read at cold start,
 * so a missing setting fails the start, not a request.
 */
export function makeDepsFromEnv(parts: readonly DepsPart[]): ServiceDeps {
  const config = loadConfig();
  const observability = makeObservability();
  const context = { config, clock: systemClock, logger: observability.logger };
  return makeCoreDeps(
    config,
    Object.assign({}, ...parts.map((part) => part(context))),
    systemClock,
    observability,
  );
}
