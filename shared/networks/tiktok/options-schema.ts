import * as z from 'zod';
import type { NetworkOptions, OptionsSubject } from '../../domain/network-options.js';
import type { RuleViolation } from '../../domain/rule-violation.js';

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

/** TikTok's privacy level is the creator's choice, so a post must carry one (docs/networks.md). */
function tiktokRequiredViolations({ options }: OptionsSubject<TikTokOptions>): RuleViolation[] {
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

/** `platformOptions.tiktok`, as the definition declares them. */
export const tiktokOptions = {
  schema: tiktokOptionsSchema,
  description:
    'TikTok: who may see the post (privacyLevel, required), what others may do, disclosure labels.',
  inputNote: 'whose privacyLevel is required',
  violations: tiktokRequiredViolations,
} satisfies NetworkOptions<typeof tiktokOptionsSchema>;
