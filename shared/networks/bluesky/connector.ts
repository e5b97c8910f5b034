import { makePublicOnlyFetch } from '../../adapters/http/public-fetch.js';
import type { Connector } from '../../ports/connector.js';
import { findCommentOnBluesky, publishCommentOnBluesky } from './comment.js';
import { findOnBluesky } from './look-up.js';
import { readBlueskyAccountMetrics, readBlueskyPostMetrics } from './metrics.js';
import { publishToBluesky } from './publish.js';

export interface BlueskyConnectorOptions {
  /** BLUESKY_VIDEO_URL: https://video.bsky.app, or a fake. */
  videoUrl: string;
  /**
   * Every call of the connector goes to the account's PDS (or the video service): the public-only
   * PDS fetch (pds-fetch.ts) unless a test injects one. Without it, the production policy.
   */
  fetch?: typeof fetch;
  now?: () => number;
}

/** Bluesky's connector: publish.ts, look-up.ts, comment.ts and metrics.ts, on each account's own PDS (from its session). */
export function makeBlueskyConnector(options: BlueskyConnectorOptions): Connector {
  const fetchImpl = options.fetch ?? makePublicOnlyFetch();
  const settings = { videoUrl: options.videoUrl, now: options.now ?? Date.now, fetch: fetchImpl };
  return {
    publish: (request) => publishToBluesky(settings, request),
    findPublished: (request) => findOnBluesky(fetchImpl, request),
    publishComment: (request) => publishCommentOnBluesky(settings, request),
    findComment: (request) => findCommentOnBluesky(fetchImpl, request),
    readPostMetrics: (request) => readBlueskyPostMetrics(fetchImpl, settings.now, request),
    readAccountMetrics: (request) => readBlueskyAccountMetrics(fetchImpl, settings.now, request),
  };
}
