import type { Connector } from '../../ports/connector.js';
import { findOnBluesky } from './look-up.js';
import { publishToBluesky } from './publish.js';

export interface BlueskyConnectorOptions {
  /** BLUESKY_VIDEO_URL: https://video.bsky.app, or a fake. */
  videoUrl: string;
  fetch?: typeof fetch;
  now?: () => number;
}

/** Bluesky's connector: publish.ts and look-up.ts, on each account's own PDS (from its session). */
export function makeBlueskyConnector(options: BlueskyConnectorOptions): Connector {
  const settings = {
    videoUrl: options.videoUrl,
    now: options.now ?? Date.now,
    ...(options.fetch && { fetch: options.fetch }),
  };
  return {
    publish: (request) => publishToBluesky(settings, request),
    findPublished: (request) => findOnBluesky(options.fetch, request),
  };
}
