import { TABLES, type TableNames } from '../adapters/dynamodb/tables.js';
import type { DailyQuotaOverrides } from '../domain/account-quotas.js';
import { type BaseConfig, baseConfigFromEnv } from './base-config.js';
import { ConfigError } from './config-error.js';
import { loadNetworkEndpoints, type NetworkEndpoints } from './network-config.js';
import { dailyQuotaOverridesEnv, dailyQuotaOverridesOf } from './quota-settings.js';

// In a file of its own so the settings this file reads (network-config.ts, quota-settings.ts) can
// throw it without importing this file back; re-exported for those who load the configuration.
export { ConfigError } from './config-error.js';

export interface ServiceConfig extends BaseConfig {
  /** DynamoDB Local's address on the local host and in tests; absent in AWS. */
  dynamodbEndpoint?: string;
  tables: TableNames;
  /** How long a resolved API key is trusted before it is read again (docs/api-decisions.md#auth: ≤ 60 s). */
  authCacheTtlSeconds: number;
  /** The KMS key that encrypts stored secrets; absent on a deployment without one (503 where needed). */
  secretsKeyArn?: string;
  /** Every address the networks' connectors and OAuth call (network-config.ts). */
  networkEndpoints: NetworkEndpoints;
  /** The quotas an operator set (each network's `quotaSettings`); absent: the defaults of DAILY_QUOTAS. */
  dailyQuotaOverrides?: DailyQuotaOverrides;
}

/** A setting the process cannot start without. */
export function requireEnv(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (!value) throw new ConfigError(`Environment variable ${name} is required.`);
  return value;
}

/** Read once at cold start; a missing setting fails the start, not a request. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const required = (name: string) => requireEnv(name, env);
  const ttl = Number(env.AUTH_CACHE_TTL_SECONDS ?? '30');
  if (!Number.isFinite(ttl) || ttl < 0 || ttl > 60) {
    throw new ConfigError('AUTH_CACHE_TTL_SECONDS must be a number from 0 to 60.');
  }
  return {
    ...baseConfigFromEnv(env),
    ...(env.DYNAMODB_ENDPOINT && { dynamodbEndpoint: env.DYNAMODB_ENDPOINT }),
    tables: Object.fromEntries(
      TABLES.map((table) => [table.name, required(table.envVar)]),
    ) as unknown as TableNames,
    authCacheTtlSeconds: ttl,
    ...(env.SECRETS_KEY_ARN && { secretsKeyArn: env.SECRETS_KEY_ARN }),
    networkEndpoints: loadNetworkEndpoints(env),
    ...dailyQuotaOverridesOf(env),
  };
}

/** The environment that makes `loadConfig` produce `config` (the local host hands it to handlers). */
export function configToEnv(config: ServiceConfig): Record<string, string> {
  return {
    AWS_REGION: config.region,
    ...(config.dynamodbEndpoint && { DYNAMODB_ENDPOINT: config.dynamodbEndpoint }),
    ...Object.fromEntries(TABLES.map((table) => [table.envVar, config.tables[table.name]])),
    AUTH_CACHE_TTL_SECONDS: String(config.authCacheTtlSeconds),
    ...(config.mediaBucket && { MEDIA_BUCKET: config.mediaBucket }),
    ...(config.s3Endpoint && { S3_ENDPOINT: config.s3Endpoint }),
    ...(config.secretsKeyArn && { SECRETS_KEY_ARN: config.secretsKeyArn }),
    ...config.networkEndpoints,
    ...(config.publicBaseUrl && { PUBLIC_BASE_URL: config.publicBaseUrl }),
    ...(config.dailyQuotaOverrides && dailyQuotaOverridesEnv(config.dailyQuotaOverrides)),
  };
}
