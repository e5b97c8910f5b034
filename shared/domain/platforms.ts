/** Platform values of the API (API.md "Platforms and post types"). */
export const PLATFORMS = ['twitter', 'linkedin', 'instagram', 'tiktok', 'youtube'] as const;

export type Platform = (typeof PLATFORMS)[number];

/** Names accepted on input and the platform they are stored as. */
export const PLATFORM_ALIASES: Readonly<Record<string, Platform>> = { x: 'twitter' };

export function normalizePlatform(value: string): Platform | undefined {
  const lower = value.toLowerCase();
  if ((PLATFORMS as readonly string[]).includes(lower)) return lower as Platform;
  // Own properties only: "constructor" or "__proto__" must not find Object.prototype's members.
  return Object.hasOwn(PLATFORM_ALIASES, lower) ? PLATFORM_ALIASES[lower] : undefined;
}
