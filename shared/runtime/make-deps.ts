import { makeDynamoAccountQuotas } from '../adapters/dynamodb/account-quotas.js';
import { makeDocumentClient, makeDynamoClient } from '../adapters/dynamodb/client.js';
import { makeDynamoMediaStore } from '../adapters/dynamodb/media-store.js';
import { makeDynamoOAuthStateStore } from '../adapters/dynamodb/oauth-state-store.js';
import { makeDynamoPostStore } from '../adapters/dynamodb/post-store.js';
import { makeDynamoRateLimiter } from '../adapters/dynamodb/rate-limiter.js';
import { makeDynamoTenancyStore } from '../adapters/dynamodb/tenancy-store.js';
import { makeDynamoWebhookStore } from '../adapters/dynamodb/webhook-store.js';
import { makeKmsClient } from '../adapters/kms/client.js';
import { makeKmsSecretCipher } from '../adapters/kms/kms-secret-cipher.js';
import { makeUnconfiguredCipher } from '../adapters/kms/unconfigured-cipher.js';
import { makePowertoolsLogger } from '../adapters/observability/powertools-logger.js';
import { makePowertoolsMetrics } from '../adapters/observability/powertools-metrics.js';
import { traced } from '../adapters/observability/tracer.js';
import { makeS3Client } from '../adapters/s3/client.js';
import { makeS3ObjectStorage } from '../adapters/s3/s3-object-storage.js';
import { makeUnconfiguredStorage } from '../adapters/s3/unconfigured-storage.js';
import { withYouTubeQuota } from '../domain/account-quotas.js';
import { makeNetworks } from '../networks/registry.js';
import { type Clock, systemClock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { Metrics } from '../ports/metrics.js';
import type { SecretCipher } from '../ports/secret-cipher.js';
import { makeAuthenticator } from '../services/authenticate.js';
import { appCredentialsFromEnv } from './app-credentials-from-env.js';
import type { ServiceConfig } from './config.js';
import type { ServiceDeps } from './deps.js';
import type { AppCredentialsSource } from './network-config.js';

export interface Observability {
  logger: Logger;
  metrics: Metrics;
}

/** Powertools' logger and metrics, configured from the environment (POWERTOOLS_*, LOG_LEVEL). */
export function makeObservability(): Observability {
  return { logger: makePowertoolsLogger(), metrics: makePowertoolsMetrics() };
}

/** Wires the AWS adapters (or DynamoDB Local, when the config names an endpoint). */
export function makeDeps(
  config: ServiceConfig,
  clock: Clock = systemClock,
  observability: Observability = makeObservability(),
  /** The local host passes its AES-GCM stand-in; AWS uses KMS when SECRETS_KEY_ARN is set. */
  secrets: SecretCipher = config.secretsKeyArn
    ? makeKmsSecretCipher(traced(makeKmsClient({ region: config.region })), config.secretsKeyArn)
    : makeUnconfiguredCipher(),
  /** Where the networks' app credentials come from: Secrets Manager when the environment names the secrets. */
  appCredentials: AppCredentialsSource = appCredentialsFromEnv({
    region: config.region,
    clock,
    logger: observability.logger,
  }),
): ServiceDeps {
  const db = makeDocumentClient(
    traced(makeDynamoClient({ region: config.region, endpoint: config.dynamodbEndpoint })),
  );
  const tenancy = makeDynamoTenancyStore(db, config.tables.main);
  const storage = config.mediaBucket
    ? makeS3ObjectStorage(
        traced(makeS3Client({ region: config.region, endpoint: config.s3Endpoint })),
        config.mediaBucket,
      )
    : makeUnconfiguredStorage();
  return {
    clock,
    tenancy,
    posts: makeDynamoPostStore(db, config.tables),
    media: makeDynamoMediaStore(db, config.tables.main),
    storage,
    quotas: makeDynamoAccountQuotas(db, config.tables.rateLimits),
    ...(config.youtubeQuota && { dailyQuotas: withYouTubeQuota(config.youtubeQuota) }),
    rateLimiter: makeDynamoRateLimiter(db, config.tables.rateLimits, clock),
    authenticator: makeAuthenticator({
      tenancy,
      clock,
      cacheTtlMs: config.authCacheTtlSeconds * 1000,
      logger: observability.logger,
    }),
    webhooks: makeDynamoWebhookStore(db, config.tables.main, clock),
    secrets,
    // Deployments never accept loopback receivers; only the local host turns this on.
    webhookReceivers: { allowLoopbackHttp: false },
    networks: makeNetworks({ endpoints: config.networkEndpoints, credentials: appCredentials }),
    appCredentials,
    ...(config.publicBaseUrl && { publicBaseUrl: config.publicBaseUrl }),
    oauthRedirects: { allowLoopbackHttp: false },
    oauthStates: makeDynamoOAuthStateStore(db, config.tables.main),
    ...observability,
  };
}
