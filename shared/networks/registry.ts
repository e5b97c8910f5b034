import type { Platform } from '../domain/platforms.js';
import {
  APP_OF_PLATFORM,
  type AppCredentialsSource,
  type NetworkEndpoints,
} from '../runtime/network-config.js';
import { makeBlueskyNetwork } from './bluesky/index.js';
import { blueskySandbox } from './bluesky/sandbox.js';
import { makeFacebookNetwork } from './facebook/index.js';
import { facebookSandbox } from './facebook/sandbox.js';
import { makeInstagramNetwork } from './instagram/index.js';
import { instagramSandbox } from './instagram/sandbox.js';
import { makeLinkedInNetwork } from './linkedin/index.js';
import { linkedinSandbox } from './linkedin/sandbox.js';
import type { Network, NetworkFactory } from './network.js';
import type { SandboxSimulation } from './sandbox/simulation.js';
import { makeThreadsNetwork } from './threads/index.js';
import { threadsSandbox } from './threads/sandbox.js';
import { makeTikTokNetwork } from './tiktok/index.js';
import { tiktokSandbox } from './tiktok/sandbox.js';
import { makeXNetwork } from './x/index.js';
import { xSandbox } from './x/sandbox.js';
import { makeYouTubeNetwork } from './youtube/index.js';
import { youtubeSandbox } from './youtube/sandbox.js';

/**
 * Every real network the service can publish to, by platform: the one map both composition roots
 * (shared/runtime for AWS, infra/local for the local host) build their networks from. The sandbox
 * is the other connector (connector-for.ts). A platform without an entry has no connector yet: its
 * accounts cannot be connected and their posts fail connector_unavailable.
 */
export const NETWORK_FACTORIES: Partial<Record<Platform, NetworkFactory>> = {
  twitter: makeXNetwork,
  linkedin: makeLinkedInNetwork,
  tiktok: makeTikTokNetwork,
  youtube: makeYouTubeNetwork,
  bluesky: makeBlueskyNetwork,
  instagram: makeInstagramNetwork,
  facebook: makeFacebookNetwork,
  threads: makeThreadsNetwork,
};

/** What the sandbox simulates of each network (its latency, media limits, failure codes and post ids). */
export const SANDBOX_SIMULATIONS: Readonly<Record<Platform, SandboxSimulation>> = {
  twitter: xSandbox,
  linkedin: linkedinSandbox,
  instagram: instagramSandbox,
  tiktok: tiktokSandbox,
  youtube: youtubeSandbox,
  bluesky: blueskySandbox,
  facebook: facebookSandbox,
  threads: threadsSandbox,
};

export type Networks = ReadonlyMap<Platform, Network>;

export function makeNetworks(deps: {
  endpoints: NetworkEndpoints;
  credentials: AppCredentialsSource;
  fetch?: typeof fetch;
}): Networks {
  const networks = new Map<Platform, Network>();
  for (const [platform, factory] of Object.entries(NETWORK_FACTORIES) as [Platform, NetworkFactory][]) {
    const app = APP_OF_PLATFORM[platform];
    networks.set(
      platform,
      factory({
        endpoints: deps.endpoints,
        appCredentials: () => deps.credentials.credentialsFor(app),
        credentialsOf: (other) => deps.credentials.credentialsFor(other),
        ...(deps.fetch && { fetch: deps.fetch }),
      }),
    );
  }
  return networks;
}
