import * as z from 'zod';
import { instagramOptionsSchema, instagramOptionsViolations } from './instagram-options.js';
import type { Platform } from './platforms.js';
import type { PostType } from './post-types.js';
import type { RuleViolation } from './rule-violation.js';
import { youtubeOptionsSchema } from './youtube-options.js';

/**
 * `platformOptions` on a post: settings one network has and the others do not (who may reply on X,
 * who sees a LinkedIn post and who posts it), keyed by the stored platform name. Each network's
 * options are a strict object, so an unknown option is a 400 like any other unknown field; options
 * for another network than the post's are a 422 (PLATFORM_OPTIONS_MISMATCH) found with the rules.
 * The connectors read `post.platformOptions?.<platform>`; an option left out is the network's default.
 *
 * Part 2 adds a network's options by writing its schema here and one line in
 * {@link platformOptionsSchema}; checks that need the post (a required option, an option that
 * depends on the post type) go in {@link platformOptionsViolations}.
 */

/** X `reply_settings` (networks/twitter.md): who may reply. Left out, everyone may. */
export const TWITTER_REPLY_SETTINGS = ['following', 'mentionedUsers', 'subscribers', 'verified'] as const;
export type TwitterReplySettings = (typeof TWITTER_REPLY_SETTINGS)[number];

export const twitterOptionsSchema = z
  .strictObject({
    replySettings: z
      .enum(TWITTER_REPLY_SETTINGS)
      .optional()
      .describe(
        'Who may reply (X reply_settings): following, mentionedUsers, subscribers or verified. Left out, everyone may.',
      ),
  })
  .meta({ id: 'TwitterOptions' });
export type TwitterOptions = z.output<typeof twitterOptionsSchema>;

/** LinkedIn post `visibility` (networks/linkedin.md); CONTAINER is for group posts, which we do not make. */
export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'] as const;
export type LinkedInVisibility = (typeof LINKEDIN_VISIBILITIES)[number];
/** What the connector sends when the caller leaves `visibility` out. */
export const LINKEDIN_DEFAULT_VISIBILITY: LinkedInVisibility = 'PUBLIC';

/** `member` posts as the connected member; an organization URN posts as that Page. */
export const LINKEDIN_MEMBER_AUTHOR = 'member';
export const LINKEDIN_ORGANIZATION_URN = /^urn:li:organization:[0-9]+$/;
const linkedInAuthor = z
  .union([
    z.literal(LINKEDIN_MEMBER_AUTHOR),
    z.string().regex(LINKEDIN_ORGANIZATION_URN, 'Expected member or urn:li:organization:<digits>.'),
  ])
  .describe(
    'member (the default) posts as the connected member; urn:li:organization:<id> posts as that Page, which the member must administer (LinkedIn checks it when the post is published).',
  );

export const linkedInOptionsSchema = z
  .strictObject({
    visibility: z
      .enum(LINKEDIN_VISIBILITIES)
      .optional()
      .describe('PUBLIC (the default), CONNECTIONS or LOGGED_IN.'),
    author: linkedInAuthor.optional(),
  })
  .meta({ id: 'LinkedInOptions' });
export type LinkedInOptions = z.output<typeof linkedInOptionsSchema>;

/** TikTok `privacy_level` values (networks/tiktok.md §2); which ones a creator may use, creator_info says. */
export const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;
export type TikTokPrivacyLevel = (typeof TIKTOK_PRIVACY_LEVELS)[number];

/** A TikTok post without a privacy level: TikTok's rules forbid choosing one for the creator. */
export const PRIVACY_LEVEL_REQUIRED = 'PRIVACY_LEVEL_REQUIRED';

export const tiktokOptionsSchema = z
  .strictObject({
    privacyLevel: z
      .enum(TIKTOK_PRIVACY_LEVELS)
      .optional()
      .describe(
        'Who may see the post: PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR or SELF_ONLY. Required on a TikTok post (no default is chosen for the creator); it must be one the creator offers, which TikTok says only when the post is published (else the post fails PRIVACY_LEVEL_NOT_OFFERED).',
      ),
    disableDuet: z.boolean().optional().describe('Turn Duet off for this video (ignored for photo posts).'),
    disableStitch: z
      .boolean()
      .optional()
      .describe('Turn Stitch off for this video (ignored for photo posts).'),
    disableComment: z.boolean().optional().describe('Turn comments off.'),
    brandContentToggle: z
      .boolean()
      .optional()
      .describe('Paid partnership: the post promotes a third party (TikTok labels it).'),
    brandOrganicToggle: z.boolean().optional().describe("The post promotes the creator's own business."),
    isAiGenerated: z.boolean().optional().describe('Label the content as AI-generated.'),
  })
  .meta({ id: 'TikTokOptions' });
export type TikTokOptions = z.output<typeof tiktokOptionsSchema>;

/** The stored shape, keyed by platform: one line per network that has options. */
export const platformOptionsSchema = z.strictObject({
  twitter: twitterOptionsSchema.optional().describe('X (twitter): who may reply.'),
  linkedin: linkedInOptionsSchema
    .optional()
    .describe('LinkedIn: who sees the post, and whether a Page posts it.'),
  youtube: youtubeOptionsSchema
    .optional()
    .describe("YouTube: the video's title, description, tags, privacy, category and audience."),
  instagram: instagramOptionsSchema
    .optional()
    .describe("Instagram: a reel's feed sharing and cover frame, a location, collaborators."),
  tiktok: tiktokOptionsSchema
    .optional()
    .describe(
      'TikTok: who may see the post (privacyLevel, required), what others may do, disclosure labels.',
    ),
});
export type PlatformOptions = z.output<typeof platformOptionsSchema>;

/**
 * The input shape: the stored one plus `x`, the alias of twitter as on `platform`
 * (docs/api-decisions.md#platforms-and-post-types).
 */
export const platformOptionsInput = platformOptionsSchema
  .extend({ x: twitterOptionsSchema.optional().describe('The same as twitter; stored as twitter.') })
  .superRefine((options, ctx) => {
    if (options.x && options.twitter) {
      ctx.addIssue({ code: 'custom', message: 'Give twitter or x, not both.', path: ['x'] });
    }
  })
  // The refinement's rule, said in the document too (naming the two properties inside `not`, so a
  // linter reading the subschema alone finds what its `required` lists).
  .meta({ not: { properties: { twitter: {}, x: {} }, required: ['twitter', 'x'] } })
  .transform(({ x, ...stored }): PlatformOptions => (x ? { ...stored, twitter: x } : stored))
  .describe(
    "Settings of the post's network, under its platform name: twitter (or x), linkedin, youtube (a title here or the text's first line), instagram and tiktok (whose privacyLevel is required). Options for another network than the post's are 422 PLATFORM_OPTIONS_MISMATCH.",
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
 * (the connector would ignore it, and the caller surely meant something else). Part 2's checks
 * that need the post go here too.
 */
export function platformOptionsViolations(draft: PlatformOptionsSubject): RuleViolation[] {
  const { platform, platformOptions: options } = draft;
  const required = platform === 'tiktok' ? tiktokRequiredViolations(options?.tiktok) : [];
  if (!options) return required;
  return [
    ...Object.entries(options)
      .filter(([key, value]) => value !== undefined && key !== platform)
      .map(([key]) => ({
        field: `platformOptions.${key}`,
        code: PLATFORM_OPTIONS_MISMATCH,
        message: `These are ${key} options; this post goes to ${platform}. Send only platformOptions.${platform}, or none.`,
      })),
    ...required,
    ...instagramOptionsViolations(draft),
  ];
}

/** TikTok's privacy level is the creator's choice, so a post must carry one (docs/networks.md). */
function tiktokRequiredViolations(options: TikTokOptions | undefined): RuleViolation[] {
  if (options?.privacyLevel) return [];
  return [
    {
      field: 'platformOptions.tiktok.privacyLevel',
      code: PRIVACY_LEVEL_REQUIRED,
      message:
        'A TikTok post needs platformOptions.tiktok.privacyLevel (PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR or SELF_ONLY); none is chosen for the creator.',
    },
  ];
}
