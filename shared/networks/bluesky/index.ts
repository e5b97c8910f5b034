import type { NetworkFactory } from '../network.js';
import { makeBlueskyConnector } from './connector.js';
import { makeBlueskyOAuth } from './oauth.js';
import { blueskyPdsFetch, type PdsFetchSeams } from './pds-fetch.js';

/**
 * Bluesky (AT Protocol): its OAuth (oauth.ts: PAR, PKCE, DPoP, private_key_jwt from
 * BLUESKY_ENTRYWAY_URL, each account's PDS found from its DID through BLUESKY_PLC_URL) and its
 * connector (connector.ts, videos through BLUESKY_VIDEO_URL), with the BLUESKY app's credentials:
 * the client id is the URL of our client metadata document, the secret the ES256 private key.
 * Every call to a PDS (a host an account's DID document names) goes through the public-only
 * fetch (pds-fetch.ts); a test's injected `fetch` still wins.
 */
export function makeBlueskyNetworkWith(seams: PdsFetchSeams): NetworkFactory {
  return (deps) => {
    const pdsFetch = deps.fetch ?? blueskyPdsFetch(deps.endpoints.BLUESKY_PLC_URL, seams);
    return {
      platform: 'bluesky',
      app: 'BLUESKY',
      oauth: makeBlueskyOAuth({
        entrywayUrl: deps.endpoints.BLUESKY_ENTRYWAY_URL,
        plcUrl: deps.endpoints.BLUESKY_PLC_URL,
        appCredentials: deps.appCredentials,
        ...(deps.fetch && { fetch: deps.fetch }),
        pdsFetch,
      }),
      connector: makeBlueskyConnector({ videoUrl: deps.endpoints.BLUESKY_VIDEO_URL, fetch: pdsFetch }),
    };
  };
}

export const makeBlueskyNetwork: NetworkFactory = makeBlueskyNetworkWith({});
