import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
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

/**
 * How the post reaches TikTok: `direct` publishes it (Direct Post, video.publish); `inbox` uploads
 * it to the creator's TikTok inbox as a draft they finish and post in the app (video.upload).
 */
export const TIKTOK_MODES = ['direct', 'inbox'] as const;
export type TikTokMode = (typeof TIKTOK_MODES)[number];

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
    mode: z
      .enum(TIKTOK_MODES)
      .optional()
      .describe(
        "direct (default): TikTok publishes the post. inbox: TikTok puts it in the creator's TikTok inbox as a draft; they finish it and post it in the TikTok app, and our post ends awaiting_creator (event post.awaiting_creator). In inbox mode TikTok takes none of the other options (the creator sets them in the app), and a video draft takes no caption: the post's text is not sent (warning TEXT_NOT_SENT_TO_INBOX); a photo draft keeps it as its description. Needs the video.upload scope (else the post fails INBOX_SCOPE_MISSING: reconnect the account).",
      ),
    autoAddMusic: z
      .boolean()
      .optional()
      .describe(
        'Photo posts in direct mode only: TikTok adds recommended music to the photos (the creator can change it later in the app).',
      ),
  })
  .meta({ id: 'TikTokOptions' });
export type TikTokOptions = z.output<typeof tiktokOptionsSchema>;

/** The options a TikTok inbox draft cannot carry: TikTok's inbox upload takes none of them. */
const NOT_FOR_INBOX = [
  'privacyLevel',
  'disableDuet',
  'disableStitch',
  'disableComment',
  'brandContentToggle',
  'brandOrganicToggle',
  'isAiGenerated',
] as const satisfies readonly (keyof TikTokOptions)[];

const notAllowed = (option: keyof TikTokOptions, message: string): RuleViolation => ({
  field: `platformOptions.tiktok.${option}`,
  code: PLATFORM_OPTION_NOT_ALLOWED,
  message,
});

/**
 * A direct post must carry a privacy level: the creator's choice (docs/networks.md). An inbox
 * draft carries none of the post settings (the creator sets them in the TikTok app, and TikTok's
 * inbox upload has no field for them). Auto-added music is a photo Direct Post field.
 */
function tiktokViolations({ postType, options }: OptionsSubject<TikTokOptions>): RuleViolation[] {
  const inbox = options?.mode === 'inbox';
  const out: RuleViolation[] = [];
  if (inbox) {
    for (const option of NOT_FOR_INBOX) {
      if (options[option] === undefined) continue;
      out.push(
        notAllowed(
          option,
          `platformOptions.tiktok.${option} cannot be used with mode inbox: TikTok's upload to the creator's inbox takes no post settings; the creator sets them in the TikTok app before posting.`,
        ),
      );
    }
  } else if (!options?.privacyLevel) {
    out.push({
      field: 'platformOptions.tiktok.privacyLevel',
      code: PRIVACY_LEVEL_REQUIRED,
      message:
        'A TikTok post needs platformOptions.tiktok.privacyLevel (PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR or SELF_ONLY); none is chosen for the creator.',
    });
  }
  if (options?.autoAddMusic !== undefined) {
    if (postType !== 'carousel') {
      out.push(
        notAllowed(
          'autoAddMusic',
          'platformOptions.tiktok.autoAddMusic is for photo posts only: TikTok adds music to photos, a video keeps its own sound.',
        ),
      );
    } else if (inbox) {
      out.push(
        notAllowed(
          'autoAddMusic',
          'platformOptions.tiktok.autoAddMusic cannot be used with mode inbox: TikTok adds music only to a photo post it publishes directly; in the inbox the creator picks the music in the TikTok app.',
        ),
      );
    }
  }
  return out;
}

/** The scope the inbox upload needs, apart from Direct Post's video.publish. */
export const TIKTOK_INBOX_SCOPE = 'video.upload';

/** `platformOptions.tiktok`, as the definition declares them. */
export const tiktokOptions = {
  schema: tiktokOptionsSchema,
  description:
    "TikTok: who may see the post (privacyLevel, required in direct mode), what others may do, disclosure labels, auto-added music for photos; or mode inbox, a draft in the creator's TikTok inbox.",
  inputNote: 'whose privacyLevel is required unless mode is inbox',
  violations: tiktokViolations,
  scopes: (options) => (options.mode === 'inbox' ? [TIKTOK_INBOX_SCOPE] : []),
} satisfies NetworkOptions<typeof tiktokOptionsSchema>;
