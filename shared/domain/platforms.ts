import {
  ACCEPTED_PLATFORM_NAMES,
  type AliasId,
  NETWORK_DEFINITIONS,
  PLATFORM_IDS,
  type PlatformId,
} from '../networks/definitions.js';

/** Platform values of the API (the interface's "Platforms and post types"): one per network definition. */
export const PLATFORMS = PLATFORM_IDS;

export type Platform = PlatformId;

/** Names accepted on input and the platform they are stored as. */
export const PLATFORM_ALIASES: Readonly<Record<string, Platform>> = Object.fromEntries(
  NETWORK_DEFINITIONS.flatMap((definition) =>
    definition.aliases.map((alias) => [alias, definition.platform]),
  ),
);

/** Every name accepted on input (the platforms, then the aliases). */
export const PLATFORM_NAMES = ACCEPTED_PLATFORM_NAMES;
export type PlatformName = PlatformId | AliasId;

/** The platform an accepted name is stored as. */
export function platformOfName(name: PlatformName): Platform {
  return Object.hasOwn(PLATFORM_ALIASES, name) ? (PLATFORM_ALIASES[name] as Platform) : (name as Platform);
}

export function normalizePlatform(value: string): Platform | undefined {
  const lower = value.toLowerCase();
  if ((PLATFORMS as readonly string[]).includes(lower)) return lower as Platform;
  // Own properties only: "constructor" or "__proto__" must not find Object.prototype's members.
  return Object.hasOwn(PLATFORM_ALIASES, lower) ? PLATFORM_ALIASES[lower] : undefined;
}
