import { makeNetworks } from '../networks/registry.js';
import { appCredentialsFromEnv } from './app-credentials-from-env.js';
import type { DepsPartContext, DepsParts } from './deps-parts.js';
import type { AppCredentialsSource } from './network-config.js';

/**
 * The networks' app credentials (Secrets Manager when the environment names the secrets, unless
 * the caller brings its own source) and the networks' clients.
 */
export const networkAppsPart = (
  { config, clock, logger }: DepsPartContext,
  appCredentials: AppCredentialsSource = appCredentialsFromEnv({ region: config.region, clock, logger }),
): Partial<DepsParts> => {
  return {
    appCredentials,
    networks: makeNetworks({ endpoints: config.networkEndpoints, credentials: appCredentials }),
  };
};
