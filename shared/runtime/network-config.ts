import type { Platform } from '../domain/platforms.js';
import type { AppCredentialsSource, NetworkApp } from '../ports/app-credentials.js';
import { ConfigError } from './config-error.js';

/**
 * Every address a connector or its OAuth calls, by environment variable, with the real host as the
 * default. Tests and `npm run fake-networks` point them at the fakes on loopback; docs/networks.md
 * lists them. Part 2's networks are here already so that one list is the whole contract.
 */
export const NETWORK_ENDPOINT_DEFAULTS = {
  X_API_URL: 'https://api.x.com',
  X_AUTHORIZE_URL: 'https://x.com/i/oauth2/authorize',
  LINKEDIN_API_URL: 'https://api.linkedin.com',
  LINKEDIN_OAUTH_URL: 'https://www.linkedin.com/oauth/v2',
  INSTAGRAM_GRAPH_URL: 'https://graph.instagram.com',
  INSTAGRAM_OAUTH_URL: 'https://api.instagram.com/oauth',
  /** The consent page is on another host than the token endpoint (INSTAGRAM_OAUTH_URL). */
  INSTAGRAM_AUTHORIZE_URL: 'https://www.instagram.com/oauth/authorize',
  TIKTOK_API_URL: 'https://open.tiktokapis.com',
  TIKTOK_AUTHORIZE_URL: 'https://www.tiktok.com/v2/auth/authorize/',
  YOUTUBE_API_URL: 'https://www.googleapis.com/youtube/v3',
  YOUTUBE_UPLOAD_URL: 'https://www.googleapis.com/upload/youtube/v3',
  GOOGLE_AUTHORIZE_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
  GOOGLE_TOKEN_URL: 'https://oauth2.googleapis.com/token',
} as const;

export type NetworkEndpointName = keyof typeof NETWORK_ENDPOINT_DEFAULTS;
export type NetworkEndpoints = Readonly<Record<NetworkEndpointName, string>>;

// The apps and their credentials are a port (ports/app-credentials.ts); configuration readers find them here too.
export {
  type AppCredentials,
  type AppCredentialsSource,
  NETWORK_APPS,
  type NetworkApp,
} from '../ports/app-credentials.js';

/** Each platform's default app: the one a connect uses unless told otherwise. */
export const APP_OF_PLATFORM: Readonly<Record<Platform, NetworkApp>> = {
  twitter: 'X',
  linkedin: 'LINKEDIN',
  instagram: 'INSTAGRAM',
  tiktok: 'TIKTOK',
  youtube: 'GOOGLE',
};

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

/** The local host's source: the environment. */
export function envAppCredentials(env: NodeJS.ProcessEnv = process.env): AppCredentialsSource {
  return {
    async credentialsFor(app) {
      const clientId = env[`${app}_CLIENT_ID`];
      const clientSecret = env[`${app}_CLIENT_SECRET`];
      return clientId && clientSecret ? { clientId, clientSecret } : undefined;
    },
  };
}
