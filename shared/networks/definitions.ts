import type { NetworkDefinition } from './definition.js';
import { instagramDefinition } from './instagram/definition.js';
import { linkedinDefinition } from './linkedin/definition.js';
import { tiktokDefinition } from './tiktok/definition.js';
import { xDefinition } from './x/definition.js';
import { youtubeDefinition } from './youtube/definition.js';

/**
 * Every network the service knows, as data: one line each, in the order the API lists them (the
 * OpenAPI enums follow it). Importable by the domain: a definition holds no connector. The
 * connectors are collected in registry.ts.
 */
export const NETWORK_DEFINITIONS = [
  xDefinition,
  linkedinDefinition,
  instagramDefinition,
  tiktokDefinition,
  youtubeDefinition,
] as const;

type Definitions = typeof NETWORK_DEFINITIONS;
type PlatformsOf<T extends readonly NetworkDefinition[]> = { -readonly [K in keyof T]: T[K]['platform'] };

/** The platform values, as a tuple (zod's and OpenAPI's enums need one). */
export const PLATFORM_IDS = NETWORK_DEFINITIONS.map(
  (definition) => definition.platform,
) as unknown as Readonly<PlatformsOf<Definitions>>;

export type PlatformId = Definitions[number]['platform'];

export function definitionOf(platform: PlatformId): Definitions[number] {
  const definition = NETWORK_DEFINITIONS.find((candidate) => candidate.platform === platform);
  if (!definition) throw new Error(`No network definition for ${platform}`);
  return definition;
}

/** The networks by the names people know them by. */
export const NETWORK_NAMES = Object.fromEntries(
  NETWORK_DEFINITIONS.map((definition) => [definition.platform, definition.displayName]),
) as Readonly<Record<PlatformId, string>>;
