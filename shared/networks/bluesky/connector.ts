import type { Connector } from '../../ports/connector.js';
import { findOnBluesky } from './look-up.js';
import { readBlueskyAccountMetrics, readBlueskyPostMetrics } from './metrics.js';
import { publishToBluesky } from './publish.js';

export interface BlueskyConnectorOptions {
  /** BLUESKY_VIDEO_URL: https://video.bsky.app, or a fake. */
  videoUrl: string;
  fetch?: typeof fetch;
  now?: () => number;
}

/** Bluesky's connector: publish.ts, look-up.ts and metrics.ts, on each account's own PDS (from its session). */
export function makeBlueskyConnector(options: BlueskyConnectorOptions): Connector {
  const settings = {
    videoUrl: options.videoUrl,
    now: options.now ?? Date.now,
    ...(options.fetch && { fetch: options.fetch }),
  };
  return {
    publish: (request) => publishToBluesky(settings, request),
    findPublished: (request) => findOnBluesky(options.fetch, request),
    readPostMetrics: (request) => readBlueskyPostMetrics(options.fetch, settings.now, request),
    readAccountMetrics: (request) => readBlueskyAccountMetrics(options.fetch, settings.now, request),
  };
}
