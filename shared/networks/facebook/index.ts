import type { Network, NetworkFactory } from '../network.js';
import { makeFacebookApi } from './api.js';
import { makeFacebookComments } from './comment.js';
import { makeFacebookLookUp } from './look-up.js';
import { makeFacebookMetrics } from './metrics.js';
import { makeFacebookOAuth } from './oauth.js';
import { makeFacebookPublish } from './publish.js';

/**
 * Facebook Pages (platform `facebook`, the Graph API's Pages API): its OAuth against
 * FACEBOOK_AUTHORIZE_URL (the consent page, where the person picks Pages) and FACEBOOK_GRAPH_URL,
 * one account per Page; its connector against FACEBOOK_GRAPH_URL, FACEBOOK_GRAPH_VIDEO_URL (feed
 * videos) and FACEBOOK_RUPLOAD_URL (reels). docs/networks.md "Facebook Pages".
 */
export const makeFacebookNetwork: NetworkFactory = (deps): Network => {
  const now = Date.now;
  const api = makeFacebookApi(
    {
      graphUrl: deps.endpoints.FACEBOOK_GRAPH_URL,
      graphVideoUrl: deps.endpoints.FACEBOOK_GRAPH_VIDEO_URL,
      ruploadUrl: deps.endpoints.FACEBOOK_RUPLOAD_URL,
    },
    deps.fetch,
  );
  return {
    platform: 'facebook',
    app: 'FACEBOOK',
    oauth: makeFacebookOAuth({
      authorizeUrl: deps.endpoints.FACEBOOK_AUTHORIZE_URL,
      graphUrl: deps.endpoints.FACEBOOK_GRAPH_URL,
      appCredentials: deps.appCredentials,
      ...(deps.fetch && { fetch: deps.fetch }),
      now,
    }),
    connector: {
      publish: makeFacebookPublish({ api, now }),
      findPublished: makeFacebookLookUp({ api }),
      ...makeFacebookMetrics({ api }),
      ...makeFacebookComments({ api, now }),
    },
  };
};
