import type { Network, NetworkFactory } from '../network.js';
import { makeInstagramApi } from './api.js';
import { makeInstagramComments } from './comment.js';
import { makeInstagramLookUp } from './look-up.js';
import { makeInstagramMetrics } from './metrics.js';
import { makeInstagramOAuth } from './oauth.js';
import { makeInstagramPublish } from './publish.js';

/**
 * The photo network (platform `instagram`, Instagram API with Instagram Login): its OAuth against
 * INSTAGRAM_AUTHORIZE_URL (the consent page) and INSTAGRAM_OAUTH_URL (the code exchange), and its
 * connector and token exchanges against INSTAGRAM_GRAPH_URL. docs/networks.md "Photo network (Instagram)".
 */
export const makeInstagramNetwork: NetworkFactory = (deps): Network => {
  const now = Date.now;
  const api = makeInstagramApi(deps.endpoints.INSTAGRAM_GRAPH_URL, deps.fetch);
  return {
    platform: 'instagram',
    app: 'INSTAGRAM',
    oauth: makeInstagramOAuth({
      authorizeUrl: deps.endpoints.INSTAGRAM_AUTHORIZE_URL,
      oauthUrl: deps.endpoints.INSTAGRAM_OAUTH_URL,
      graphUrl: deps.endpoints.INSTAGRAM_GRAPH_URL,
      appCredentials: deps.appCredentials,
      ...(deps.fetch && { fetch: deps.fetch }),
      now,
    }),
    connector: {
      publish: makeInstagramPublish({ api, now }),
      findPublished: makeInstagramLookUp({ api }),
      ...makeInstagramMetrics({ api }),
      ...makeInstagramComments({ api, now }),
    },
  };
};
