import type { DashboardSettings } from '../dashboard/env.js';
import type { Logger } from '../ports/logger.js';
import type { ServiceConfig } from './config.js';
import { mediaStorageOrigin } from './media-storage-origin.js';
import { secureCookiesFor } from './secure-cookies.js';

/**
 * The part of the configuration the dashboard's settings read, from the environment by
 * loadConfig's names and defaults, without loadConfig: its network endpoints bring every
 * network's definition (and zod) into the cold start. The whole configuration is read with the
 * deps, by the first request that needs a store (dashboard-deps-from-env.ts), and a missing
 * setting fails that request. test/unit/runtime/dashboard-settings.test.ts holds the two together.
 */
function settingsConfig(
  env: NodeJS.ProcessEnv,
): Pick<ServiceConfig, 'region' | 'mediaBucket' | 's3Endpoint' | 'publicBaseUrl'> {
  return {
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(env.MEDIA_BUCKET && { mediaBucket: env.MEDIA_BUCKET }),
    ...(env.S3_ENDPOINT && { s3Endpoint: env.S3_ENDPOINT }),
    ...(env.PUBLIC_BASE_URL && { publicBaseUrl: env.PUBLIC_BASE_URL }),
  };
}

/** The dashboard Lambda's settings (secure cookies, the storage's origin for the CSP) at cold start. */
export function dashboardSettingsFromEnv(
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): DashboardSettings {
  const config = settingsConfig(env);
  const storage = mediaStorageOrigin(config);
  return {
    secureCookies: secureCookiesFor(config.publicBaseUrl),
    ...(storage && { mediaStorageOrigin: storage }),
    logger,
  };
}
