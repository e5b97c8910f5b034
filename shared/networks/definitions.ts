import type { NetworkRules } from '../domain/platform-rules/helpers.js';
import { blueskyDefinition } from './bluesky/definition.js';
import type { DailyQuota, LateIdNotes, NetworkDefinition, QuotaSettings } from './definition.js';
import { facebookDefinition } from './facebook/definition.js';
import { instagramDefinition } from './instagram/definition.js';
import { linkedinDefinition } from './linkedin/definition.js';
import { threadsDefinition } from './threads/definition.js';
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
  blueskyDefinition,
  facebookDefinition,
  threadsDefinition,
] as const;

/**
 * A name two networks declare would have one silently shadow the other (an endpoint pointed at the
 * wrong host, a connect using another network's app): the registry refuses it when it loads.
 */
export function assertDistinctNames(definitions: readonly NetworkDefinition[]): void {
  const kinds = {
    'platform or alias': definitions.flatMap((definition) => [definition.platform, ...definition.aliases]),
    app: definitions.flatMap((definition) => definition.apps),
    endpoint: definitions.flatMap((definition) => Object.keys(definition.endpoints)),
    'quota setting': definitions.flatMap((definition) => Object.values(definition.quotaSettings ?? {})),
  };
  for (const [kind, names] of Object.entries(kinds)) {
    const repeated = names.find((name, index) => names.indexOf(name) !== index);
    if (repeated !== undefined) throw new Error(`Two networks declare the ${kind} ${repeated}.`);
  }
}

assertDistinctNames(NETWORK_DEFINITIONS);

type Definitions = typeof NETWORK_DEFINITIONS;
type Definition = Definitions[number];
type PlatformsOf<T extends readonly NetworkDefinition[]> = { -readonly [K in keyof T]: T[K]['platform'] };
type EndpointsOf<D> = D extends { endpoints: infer E } ? keyof E & string : never;

/** The platform values, as a tuple (zod's and OpenAPI's enums need one). */
export const PLATFORM_IDS = NETWORK_DEFINITIONS.map(
  (definition) => definition.platform,
) as unknown as Readonly<PlatformsOf<Definitions>>;

export type PlatformId = Definition['platform'];

export function definitionOf(platform: PlatformId): Definition {
  const definition = NETWORK_DEFINITIONS.find((candidate) => candidate.platform === platform);
  if (!definition) throw new Error(`No network definition for ${platform}`);
  return definition;
}

/** The other names accepted on input. */
export type AliasId = Definition['aliases'][number];

/** Every name accepted on input, the platforms first, as a tuple (zod's and OpenAPI's enums need one). */
export const ACCEPTED_PLATFORM_NAMES = [
  ...PLATFORM_IDS,
  ...NETWORK_DEFINITIONS.flatMap((definition) => definition.aliases),
] as unknown as readonly [PlatformId | AliasId, ...(PlatformId | AliasId)[]];

/** The networks by the names people know them by. */
export const NETWORK_NAMES = Object.fromEntries(
  NETWORK_DEFINITIONS.map((definition) => [definition.platform, definition.displayName]),
) as Readonly<Record<PlatformId, string>>;

/** Every network's developer apps, in the definitions' order (one CDK secret each). */
export type AppId = Definition['apps'][number];
export const APP_IDS: readonly AppId[] = NETWORK_DEFINITIONS.flatMap((definition) => definition.apps);

/** Each platform's default app: the one a connect uses unless told otherwise. */
export const DEFAULT_APP_OF_PLATFORM = Object.fromEntries(
  NETWORK_DEFINITIONS.map((definition) => [definition.platform, definition.apps[0]]),
) as Readonly<Record<PlatformId, AppId>>;

/** Every address a connector or its OAuth calls, by environment variable, with the real host as the default. */
export type EndpointName = EndpointsOf<Definition>;
export const ENDPOINT_DEFAULTS = Object.fromEntries(
  NETWORK_DEFINITIONS.flatMap((definition) => Object.entries(definition.endpoints)),
) as Readonly<Record<EndpointName, string>>;

/** Each platform's post types, as its definition lists them. */
export const POST_TYPES_OF_PLATFORM = Object.fromEntries(
  NETWORK_DEFINITIONS.map((definition) => [definition.platform, definition.postTypes]),
) as { readonly [D in Definition as D['platform']]: D['postTypes'] };

/** Each platform's sandbox account handle (an operator's bootstrap). */
export const SANDBOX_HANDLES = Object.fromEntries(
  NETWORK_DEFINITIONS.map((definition) => [definition.platform, definition.sandboxHandle]),
) as Readonly<Record<PlatformId, string>>;

/**
 * The platforms for a person to read, aliases in parentheses: `twitter (or x), linkedin, …`
 * (the OpenAPI descriptions, the admin CLI's usage).
 */
export function platformsDescribed(
  aliasWording: (alias: string, platform: string) => string = (alias) => `or ${alias}`,
): string {
  return NETWORK_DEFINITIONS.map((definition) =>
    definition.aliases.length === 0
      ? definition.platform
      : `${definition.platform} (${definition.aliases.map((alias) => aliasWording(alias, definition.platform)).join(', ')})`,
  ).join(', ');
}

/** The platforms as a sentence's list: `twitter, linkedin, … or youtube`. */
export function platformsListed(): string {
  return `${PLATFORM_IDS.slice(0, -1).join(', ')} or ${PLATFORM_IDS.at(-1)}`;
}

/** Each platform's daily ceiling per account, as its definition declares it. */
export const DAILY_QUOTA_OF_PLATFORM = Object.fromEntries(
  NETWORK_DEFINITIONS.map((definition) => [definition.platform, definition.dailyQuota]),
) as Readonly<Record<PlatformId, DailyQuota>>;

/** The platforms whose quota is counted per app as well, and the name of that counter. */
export const PROJECT_QUOTA_COUNTER_OF_PLATFORM: Readonly<Partial<Record<PlatformId, string>>> =
  Object.fromEntries(
    NETWORK_DEFINITIONS.flatMap((definition) =>
      'projectQuotaCounter' in definition ? [[definition.platform, definition.projectQuotaCounter]] : [],
    ),
  );

/** The platforms whose connector reports the account's own quota. */
export const PLATFORMS_REPORTING_QUOTA: readonly PlatformId[] = NETWORK_DEFINITIONS.filter(
  (definition) => 'reportsOwnQuota' in definition && definition.reportsOwnQuota,
).map((definition) => definition.platform);

/** The platforms whose daily quota an operator may set, and the names of the settings that set it. */
export const QUOTA_SETTINGS_OF_PLATFORM: Readonly<Partial<Record<PlatformId, QuotaSettings>>> =
  Object.fromEntries(
    NETWORK_DEFINITIONS.flatMap((definition) =>
      'quotaSettings' in definition ? [[definition.platform, definition.quotaSettings]] : [],
    ),
  );

/** Why networks name a published post late, one note each (the post id warnings). */
export const LATE_ID_NOTES: readonly LateIdNotes[] = NETWORK_DEFINITIONS.flatMap((definition) =>
  'lateIdNotes' in definition ? [definition.lateIdNotes] : [],
);

/**
 * The networks with more than one kind of app a connect may ask for, each with its choice: the
 * connect body's field and the account read's (a public API name), the dashboard's connect choices.
 */
export const APP_CHOICES = NETWORK_DEFINITIONS.flatMap((definition) =>
  'appChoice' in definition
    ? [{ platform: definition.platform, displayName: definition.displayName, ...definition.appChoice }]
    : [],
);

/** Each platform's content rules, as its definition holds them (the domain's platform rules run them). */
export const RULES_OF_PLATFORM = Object.fromEntries(
  NETWORK_DEFINITIONS.map((definition) => [definition.platform, definition.rules]),
) as Readonly<Record<PlatformId, NetworkRules>>;

/** A post warning's examples, one per network that gives it (the Post's `warnings` description). */
/** Every warning code the networks declare, each with the networks' examples of it, in the definitions' order. */
export function declaredWarnings(): { code: string; examples: string[] }[] {
  const codes = [
    ...new Set(
      NETWORK_DEFINITIONS.flatMap((definition) =>
        'warningExamples' in definition ? Object.keys(definition.warningExamples) : [],
      ),
    ),
  ];
  return codes.map((code) => ({ code, examples: warningExamplesOf(code) }));
}

export function warningExamplesOf(code: string): string[] {
  return NETWORK_DEFINITIONS.flatMap((definition) => {
    const examples: NetworkDefinition['warningExamples'] =
      'warningExamples' in definition ? definition.warningExamples : undefined;
    const example = examples?.[code];
    return example === undefined ? [] : [example];
  });
}
