import * as z from 'zod';
import { definitionOf, NETWORK_DEFINITIONS } from '../networks/definitions.js';
import type { NetworkOptions } from './network-options.js';
import type { Platform } from './platforms.js';
import type { PostType } from './post-shape.js';
import type { RuleViolation } from './rule-violation.js';

export { PLATFORM_OPTION_NOT_ALLOWED } from './network-options.js';

/**
 * `platformOptions` on a post: settings one network has and the others do not (who may reply on X,
 * who sees a LinkedIn post and who posts it), keyed by the stored platform name. Each network
 * declares its own in `shared/networks/<net>/options-schema.ts` (its definition's `platformOptions`):
 * a strict object, so an unknown option is a 400 like any other unknown field; options for another
 * network than the post's are a 422 (PLATFORM_OPTIONS_MISMATCH) found with the rules. The connectors
 * read `post.platformOptions?.<platform>`; an option left out is the network's default.
 *
 * A network adds its options in its own folder; checks that need the post (a required option, an
 * option that depends on the post type) are its options' `violations`, which
 * {@link platformOptionsViolations} runs.
 */

type Definition = (typeof NETWORK_DEFINITIONS)[number];
type OptionsSchemaOf<D> = D extends { platformOptions: { schema: infer S extends z.ZodType } } ? S : never;

/** The stored shape's properties: one per platform, each its network's schema, optional. */
type StoredShape = { [D in Definition as D['platform']]: z.ZodOptional<OptionsSchemaOf<D>> };
/** The input's extra properties: one per alias, the schema of the network it names. */
type AliasShape = { [D in Definition as D['aliases'][number]]: z.ZodOptional<OptionsSchemaOf<D>> };

/** A platform's options, held as the contract says (its `violations` typed by its own schema). */
const optionsOf = (platform: Platform): NetworkOptions => definitionOf(platform).platformOptions;

/** The stored shape, keyed by platform: one property per network, in the definitions' order. */
export const platformOptionsSchema = z.strictObject(
  Object.fromEntries(
    NETWORK_DEFINITIONS.map(({ platform, platformOptions }) => [
      platform,
      platformOptions.schema.optional().describe(platformOptions.description),
    ]),
  ) as StoredShape,
);
export type PlatformOptions = z.output<typeof platformOptionsSchema>;

/** Each alias and the platform it is stored as (`x` and twitter). */
const ALIASES = NETWORK_DEFINITIONS.flatMap(({ platform, aliases }) =>
  aliases.map((alias) => ({ alias, platform })),
);

/** `twitter (or x)`, `tiktok (whose privacyLevel is required)`: a platform as the input's description names it. */
function describedPlatform({ platform, aliases, platformOptions }: Definition): string {
  const notes: string[] = [
    ...aliases.map((alias) => `or ${alias}`),
    ...('inputNote' in platformOptions ? [platformOptions.inputNote] : []),
  ];
  return notes.length === 0 ? platform : `${platform} (${notes.join('; ')})`;
}

/** Only the platforms with something to say: the properties name every one (and tools/list pays per byte). */
const notedPlatforms = NETWORK_DEFINITIONS.filter(
  ({ aliases, platformOptions }) => aliases.length > 0 || 'inputNote' in platformOptions,
).map(describedPlatform);

/** The refinement's rule for each alias, said in the document too: not both names of one network. */
const bothNamesRefused = ALIASES.map(({ alias, platform }) => ({
  not: { properties: { [platform]: {}, [alias]: {} }, required: [platform, alias] },
}));

/**
 * The input shape: the stored one plus each alias of a platform as on `platform` (`x` for twitter,
 * docs/api-decisions.md#platforms-and-post-types), stored under the platform.
 */
export const platformOptionsInput = platformOptionsSchema
  .extend(
    Object.fromEntries(
      ALIASES.map(({ alias, platform }) => [
        alias,
        optionsOf(platform).schema.optional().describe(`The same as ${platform}; stored as ${platform}.`),
      ]),
    ) as AliasShape,
  )
  .superRefine((options, ctx) => {
    const given: Readonly<Record<string, unknown>> = options;
    for (const { alias, platform } of ALIASES) {
      if (given[alias] && given[platform]) {
        ctx.addIssue({ code: 'custom', message: `Give ${platform} or ${alias}, not both.`, path: [alias] });
      }
    }
  })
  // The refinement's rule, said in the document too (naming the two properties inside `not`, so a
  // linter reading the subschema alone finds what its `required` lists).
  .meta(bothNamesRefused.length === 1 ? (bothNamesRefused[0] ?? {}) : { allOf: bothNamesRefused })
  .transform((options): PlatformOptions => {
    const stored: Record<string, unknown> = { ...options };
    for (const { alias, platform } of ALIASES) {
      const value = stored[alias];
      delete stored[alias];
      if (value) stored[platform] = value;
    }
    return stored as PlatformOptions;
  })
  .describe(
    `Settings of the post's network, under its platform name: ${notedPlatforms.join(', ')}; the others' plainly. Options for another network than the post's are 422 PLATFORM_OPTIONS_MISMATCH. Each network's fields, described: listNetworks.`,
  );

/** Options with nothing in them are no options: the post stores none and reads back null. */
export function hasPlatformOptions(options: PlatformOptions | null | undefined): options is PlatformOptions {
  return options !== null && options !== undefined && Object.keys(options).length > 0;
}

export const PLATFORM_OPTIONS_MISMATCH = 'PLATFORM_OPTIONS_MISMATCH';

/** What of a post its options are checked against (a PostDraft is one; posts.ts imports this file). */
export interface PlatformOptionsSubject {
  platform: Platform;
  postType: PostType;
  platformOptions?: PlatformOptions;
}

/**
 * The 422 items of a post's options: each network named other than the post's own is a mismatch
 * (the connector would ignore it, and the caller surely meant something else), then the post's
 * own network's checks that need the post (its options' `violations`).
 */
export function platformOptionsViolations(draft: PlatformOptionsSubject): RuleViolation[] {
  const { platform, postType, platformOptions: options } = draft;
  const own = optionsOf(platform).violations?.({ postType, options: options?.[platform] }) ?? [];
  if (!options) return own;
  return [
    ...Object.entries(options)
      .filter(([key, value]) => value !== undefined && key !== platform)
      .map(([key]) => ({
        field: `platformOptions.${key}`,
        code: PLATFORM_OPTIONS_MISMATCH,
        message: `These are ${key} options; this post goes to ${platform}. Send only platformOptions.${platform}, or none.`,
      })),
    ...own,
  ];
}
