import type { Network, NetworkFactory } from '../network.js';
import { makeYouTubeApi } from './api.js';
import { makeYouTubeFindComment, makeYouTubePublishComment } from './comment.js';
import { YOUTUBE_DEFAULT_CHUNK_BYTES, YOUTUBE_UPLOAD_BUDGET_MS } from './limits.js';
import { makeYouTubeLookUp } from './look-up.js';
import { makeYouTubeMetrics } from './metrics.js';
import { makeYouTubeOAuth } from './oauth.js';
import { makeYouTubePublish } from './publish.js';

export interface YouTubeTuning {
  /** Bytes per PUT (a multiple of 256 KiB; default 8 MiB). */
  chunkBytes?: number;
  /** How long one invocation uploads before `pending` (default 30 s). */
  budgetMs?: number;
  /** Video ids per statistics read (default and most: 50). */
  metricsBatchSize?: number;
  now?: () => number;
}

/**
 * The video network (platform `youtube`, Google's app): OAuth at GOOGLE_AUTHORIZE_URL and
 * GOOGLE_TOKEN_URL, the channel and processing status at YOUTUBE_API_URL, resumable uploads at
 * YOUTUBE_UPLOAD_URL, the statistics at YOUTUBE_API_URL and watch time at YOUTUBE_ANALYTICS_API_URL (docs/metrics.md),
 * then the thumbnail, the playlist (after-publish.ts) and the first comment (comment.ts). docs/networks.md "Video network (YouTube)".
 */
export function makeYouTubeNetworkWith(tuning: YouTubeTuning): NetworkFactory {
  return (deps): Network => {
    const now = tuning.now ?? Date.now;
    const api = makeYouTubeApi(deps.fetch);
    const { YOUTUBE_API_URL: apiUrl, YOUTUBE_UPLOAD_URL: uploadUrl } = deps.endpoints;
    return {
      platform: 'youtube',
      app: 'GOOGLE',
      oauth: makeYouTubeOAuth({
        authorizeUrl: deps.endpoints.GOOGLE_AUTHORIZE_URL,
        tokenUrl: deps.endpoints.GOOGLE_TOKEN_URL,
        apiUrl,
        appCredentials: deps.appCredentials,
        ...(deps.fetch && { fetch: deps.fetch }),
        now,
      }),
      connector: {
        publish: makeYouTubePublish({
          api,
          apiUrl,
          uploadUrl,
          now,
          chunkBytes: tuning.chunkBytes ?? YOUTUBE_DEFAULT_CHUNK_BYTES,
          budgetMs: tuning.budgetMs ?? YOUTUBE_UPLOAD_BUDGET_MS,
        }),
        findPublished: makeYouTubeLookUp({ api, apiUrl, uploadUrl, now }),
        publishComment: makeYouTubePublishComment({ api, apiUrl, now }),
        findComment: makeYouTubeFindComment({ api, apiUrl, now }),
        ...makeYouTubeMetrics({
          api,
          apiUrl,
          analyticsUrl: deps.endpoints.YOUTUBE_ANALYTICS_API_URL,
          now,
          ...(tuning.metricsBatchSize && { batchSize: tuning.metricsBatchSize }),
        }),
      },
    };
  };
}

export const makeYouTubeNetwork: NetworkFactory = makeYouTubeNetworkWith({});
