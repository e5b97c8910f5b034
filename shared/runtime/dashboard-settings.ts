import type { DashboardSettings } from '../dashboard/env.js';
import type { Logger } from '../ports/logger.js';
import { baseConfigFromEnv } from './base-config.js';
import { mediaStorageOrigin } from './media-storage-origin.js';
import { secureCookiesFor } from './secure-cookies.js';

/** The dashboard Lambda's settings (secure cookies, the storage's origin for the CSP) at cold start. */
export function dashboardSettingsFromEnv(
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): DashboardSettings {
  // Not loadConfig (base-config.ts says why): the rest of the configuration is read with the deps,
  // by the first request that needs a store (dashboard-deps-from-env.ts).
  const config = baseConfigFromEnv(env);
  const storage = mediaStorageOrigin(config);
  return {
    secureCookies: secureCookiesFor(config.publicBaseUrl),
    ...(storage && { mediaStorageOrigin: storage }),
    logger,
  };
}
