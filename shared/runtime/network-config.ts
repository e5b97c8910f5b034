import type { Platform } from '../domain/platforms.js';
import { DEFAULT_APP_OF_PLATFORM, ENDPOINT_DEFAULTS, type EndpointName } from '../networks/definitions.js';
import { type AppCredentialsSource, NETWORK_APPS, type NetworkApp } from '../ports/app-credentials.js';
import { ConfigError } from './config-error.js';

/**
 * Every address a connector or its OAuth calls, by environment variable, with the real host as the
 * default: each network declares its own (shared/networks/<net>/definition.ts). Tests and
 * `npm run fake-networks` point them at the fakes on loopback; docs/networks.md lists them.
 */
export const NETWORK_ENDPOINT_DEFAULTS = ENDPOINT_DEFAULTS;

export type NetworkEndpointName = EndpointName;
export type NetworkEndpoints = Readonly<Record<NetworkEndpointName, string>>;

// The apps and their credentials are a port (ports/app-credentials.ts); configuration readers find them here too.
export {
  type AppCredentials,
  type AppCredentialsSource,
  NETWORK_APPS,
  type NetworkApp,
} from '../ports/app-credentials.js';

/** Each platform's default app: the one a connect uses unless told otherwise (its definition's first). */
export const APP_OF_PLATFORM: Readonly<Record<Platform, NetworkApp>> = DEFAULT_APP_OF_PLATFORM;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Read once at cold start: a malformed address fails the start, not a post. */
export function loadNetworkEndpoints(env: NodeJS.ProcessEnv = process.env): NetworkEndpoints {
  const endpoints = { ...NETWORK_ENDPOINT_DEFAULTS } as Record<NetworkEndpointName, string>;
  for (const name of Object.keys(NETWORK_ENDPOINT_DEFAULTS) as NetworkEndpointName[]) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (!isHttpUrl(value)) throw new ConfigError(`${name} must be an http(s) URL.`);
    endpoints[name] = value.replace(/\/+$/, '');
  }
  return endpoints;
}

/** The variable that says whether an app is approved for its metrics-only scopes (AppCredentials). */
export function askMetricsScopesEnvName(app: NetworkApp): `${NetworkApp}_ASK_METRICS_SCOPES` {
  return `${app}_ASK_METRICS_SCOPES`;
}

/** The variable that says whether an app is approved for its comment-only scopes (AppCredentials). */
export function askCommentScopesEnvName(app: NetworkApp): `${NetworkApp}_ASK_COMMENT_SCOPES` {
  return `${app}_ASK_COMMENT_SCOPES`;
}

/** The variable that says whether an app is approved for the scopes only some options need (AppCredentials). */
export function askOptionScopesEnvName(app: NetworkApp): `${NetworkApp}_ASK_OPTION_SCOPES` {
  return `${app}_ASK_OPTION_SCOPES`;
}

/** `true` or `false` (any case), or unset: asked; anything else fails the start, not a connect. */
function readSwitch(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigError(`${name} must be true or false.`);
}

/** The local host's source: the environment (the switches read once, the credentials at each use). */
export function envAppCredentials(env: NodeJS.ProcessEnv = process.env): AppCredentialsSource {
  const withoutMetricsScopes = new Set(
    NETWORK_APPS.filter((app) => !readSwitch(env, askMetricsScopesEnvName(app))),
  );
  const withoutCommentScopes = new Set(
    NETWORK_APPS.filter((app) => !readSwitch(env, askCommentScopesEnvName(app))),
  );
  const withoutOptionScopes = new Set(
    NETWORK_APPS.filter((app) => !readSwitch(env, askOptionScopesEnvName(app))),
  );
  return {
    async credentialsFor(app) {
      const clientId = env[`${app}_CLIENT_ID`];
      const clientSecret = env[`${app}_CLIENT_SECRET`];
      if (!clientId || !clientSecret) return undefined;
      return {
        clientId,
        clientSecret,
        ...(withoutMetricsScopes.has(app) && { askMetricsScopes: false }),
        ...(withoutCommentScopes.has(app) && { askCommentScopes: false }),
        ...(withoutOptionScopes.has(app) && { askOptionScopes: false }),
      };
    },
  };
}
