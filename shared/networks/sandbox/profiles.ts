import type { Platform } from '../../domain/platforms.js';
import type { MediaKind } from '../../domain/posts.js';
import { NETWORK_NAMES } from '../definitions.js';
import { SANDBOX_SIMULATIONS } from '../registry.js';
import type { LatencyRange, NetworkProfile } from './simulation.js';

export type { LatencyRange, NetworkProfile } from './simulation.js';

/**
 * Each network's simulation, by platform, as it declares it (shared/networks/<net>/sandbox.ts).
 */
function byPlatform<T>(pick: (platform: Platform) => T): Readonly<Record<Platform, T>> {
  return Object.fromEntries(
    (Object.keys(SANDBOX_SIMULATIONS) as Platform[]).map((platform) => [platform, pick(platform)]),
  ) as Record<Platform, T>;
}

/** How long each network usually takes to accept a post (media uploads and processing included). */
export const SANDBOX_DEFAULT_LATENCY_MS: Readonly<Record<Platform, LatencyRange>> = byPlatform(
  (platform) => SANDBOX_SIMULATIONS[platform].latencyMs,
);

/**
 * Largest file each network takes, per kind (networks/*.md "Media limits"); absent: no documented
 * limit. Only pre-uploaded media (whose size is stored) is checked.
 */
export const SANDBOX_MEDIA_SIZE_LIMITS: Readonly<Record<Platform, Partial<Record<MediaKind, number>>>> =
  byPlatform((platform) => SANDBOX_SIMULATIONS[platform].mediaSizeLimits);

/** Largest animated GIF, for the networks with a limit of their own for them (X takes up to 15 MB). */
export const SANDBOX_GIF_SIZE_LIMITS: Readonly<Record<Platform, number | undefined>> = byPlatform(
  (platform) => SANDBOX_SIMULATIONS[platform].gifSizeLimit,
);

/** How each network names a failure, with its name in messages. */
export const NETWORK_PROFILES: Readonly<Record<Platform, NetworkProfile>> = byPlatform((platform) => ({
  name: NETWORK_NAMES[platform],
  ...SANDBOX_SIMULATIONS[platform].profile,
}));
