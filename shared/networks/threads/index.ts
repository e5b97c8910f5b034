import type { Network, NetworkFactory } from '../network.js';
import { makeThreadsApi } from './api.js';
import { makeThreadsComments } from './comment.js';
import { makeThreadsLookUp } from './look-up.js';
import { makeThreadsMetrics } from './metrics.js';
import { makeThreadsOAuth } from './oauth.js';
import { makeThreadsPublish } from './publish.js';

/**
 * Meta's Threads (platform `threads`): its OAuth against THREADS_AUTHORIZE_URL (the consent page)
 * and THREADS_GRAPH_URL (the code and token exchanges), and its connector against
 * THREADS_GRAPH_URL. docs/networks.md "Threads".
 */
export const makeThreadsNetwork: NetworkFactory = (deps): Network => {
  const now = Date.now;
  const api = makeThreadsApi(deps.endpoints.THREADS_GRAPH_URL, deps.fetch);
  return {
    platform: 'threads',
    app: 'THREADS',
    oauth: makeThreadsOAuth({
      authorizeUrl: deps.endpoints.THREADS_AUTHORIZE_URL,
      graphUrl: deps.endpoints.THREADS_GRAPH_URL,
      appCredentials: deps.appCredentials,
      ...(deps.fetch && { fetch: deps.fetch }),
      now,
    }),
    connector: {
      publish: makeThreadsPublish({ api, now }),
      findPublished: makeThreadsLookUp({ api }),
      ...makeThreadsMetrics({ api }),
      ...makeThreadsComments({ api, now }),
    },
  };
};
