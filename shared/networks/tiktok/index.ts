import type { Network, NetworkFactory } from '../network.js';
import { makeTikTokApi } from './api.js';
import { makeTikTokLookUp } from './look-up.js';
import { makeTikTokMetrics } from './metrics.js';
import { makeTikTokOAuth } from './oauth.js';
import { makeTikTokPublish, type TikTokPublishDeps } from './publish.js';
import { PerMinuteWindow } from './rate-window.js';

/** Test seams: smaller chunks and a clock, so a multi-chunk upload and its hand-over fit in a test. */
export type TikTokTuning = Partial<Pick<TikTokPublishDeps, 'chunkRules' | 'uploadBudgetMs' | 'now'>>;

/**
 * The short-video network (platform `tiktok`): TikTok's OAuth v2 and Content Posting API, against
 * TIKTOK_AUTHORIZE_URL and TIKTOK_API_URL (the real hosts by default; the fake in tests and with
 * FAKE_NETWORKS=1). TIKTOK_CLIENT_ID holds the app's client key. docs/networks.md "Short-video network (TikTok)".
 */
export function makeTikTokNetworkWith(tuning: TikTokTuning): NetworkFactory {
  return (deps): Network => {
    const now = tuning.now ?? Date.now;
    const api = makeTikTokApi(deps.endpoints.TIKTOK_API_URL, deps.fetch);
    const metrics = makeTikTokMetrics({ api });
    return {
      platform: 'tiktok',
      app: 'TIKTOK',
      oauth: makeTikTokOAuth({
        authorizeUrl: deps.endpoints.TIKTOK_AUTHORIZE_URL,
        apiUrl: deps.endpoints.TIKTOK_API_URL,
        appCredentials: deps.appCredentials,
        ...(deps.fetch && { fetch: deps.fetch }),
        now,
      }),
      connector: {
        publish: makeTikTokPublish({ ...tuning, api, now, window: new PerMinuteWindow(now) }),
        findPublished: makeTikTokLookUp({ api }),
        readPostMetrics: metrics.readPostMetrics,
        readAccountMetrics: metrics.readAccountMetrics,
      },
    };
  };
}

export const makeTikTokNetwork: NetworkFactory = makeTikTokNetworkWith({});
