import type { Network, NetworkFactory } from '../network.js';
import { makeLinkedInApi } from './api.js';
import { LINKEDIN_APP_OF_KIND } from './apps.js';
import { makeLinkedInFindComment, makeLinkedInPublishComment } from './comment.js';
import { makeLinkedInLookUp } from './look-up.js';
import { makeLinkedInAccountMetrics, makeLinkedInPostMetrics } from './metrics.js';
import { makeLinkedInOAuth } from './oauth.js';
import { makeLinkedInPublish } from './publish.js';

/**
 * The professional network (platform `linkedin`): its OAuth and its connector, against
 * LINKEDIN_OAUTH_URL and LINKEDIN_API_URL (the real hosts by default; the fake in tests and with
 * FAKE_NETWORKS=1). Two kinds of app: the member app (LINKEDIN, the default) and the Community
 * Management app (LINKEDIN_COMMUNITY), each its own OAuth client; the connector serves both.
 * docs/networks.md "Professional network (LinkedIn)".
 */
export const makeLinkedInNetwork: NetworkFactory = (deps): Network => {
  const now = Date.now;
  const api = makeLinkedInApi(deps.endpoints.LINKEDIN_API_URL, deps.fetch);
  const oauthOf = (kind: 'member' | 'community', appCredentials: typeof deps.appCredentials) =>
    makeLinkedInOAuth({
      kind,
      oauthUrl: deps.endpoints.LINKEDIN_OAUTH_URL,
      apiUrl: deps.endpoints.LINKEDIN_API_URL,
      appCredentials,
      ...(deps.fetch && { fetch: deps.fetch }),
      now,
    });
  const community = LINKEDIN_APP_OF_KIND.community;
  return {
    platform: 'linkedin',
    app: LINKEDIN_APP_OF_KIND.member,
    oauth: oauthOf('member', deps.appCredentials),
    otherApps: [
      {
        app: community,
        oauth: oauthOf('community', async () => deps.credentialsOf?.(community)),
      },
    ],
    connector: {
      publish: makeLinkedInPublish({ api, now }),
      findPublished: makeLinkedInLookUp({ api }),
      publishComment: makeLinkedInPublishComment({ api }),
      findComment: makeLinkedInFindComment({ api }),
      readPostMetrics: makeLinkedInPostMetrics({ api, now }),
      readAccountMetrics: makeLinkedInAccountMetrics({ api, now }),
    },
  };
};
