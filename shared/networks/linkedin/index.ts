import type { Network, NetworkFactory } from '../network.js';
import { makeLinkedInApi } from './api.js';
import { makeLinkedInLookUp } from './look-up.js';
import { makeLinkedInOAuth } from './oauth.js';
import { makeLinkedInPublish } from './publish.js';

/**
 * The professional network (platform `linkedin`): its OAuth and its connector, against
 * LINKEDIN_OAUTH_URL and LINKEDIN_API_URL (the real hosts by default; the fake in tests and with
 * FAKE_NETWORKS=1). docs/networks.md "Professional network (LinkedIn)".
 */
export const makeLinkedInNetwork: NetworkFactory = (deps): Network => {
  const now = Date.now;
  const api = makeLinkedInApi(deps.endpoints.LINKEDIN_API_URL, deps.fetch);
  return {
    platform: 'linkedin',
    app: 'LINKEDIN',
    oauth: makeLinkedInOAuth({
      oauthUrl: deps.endpoints.LINKEDIN_OAUTH_URL,
      apiUrl: deps.endpoints.LINKEDIN_API_URL,
      appCredentials: deps.appCredentials,
      ...(deps.fetch && { fetch: deps.fetch }),
      now,
    }),
    connector: {
      publish: makeLinkedInPublish({ api, now }),
      findPublished: makeLinkedInLookUp({ api }),
    },
  };
};
