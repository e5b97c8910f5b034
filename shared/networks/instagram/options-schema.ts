import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
import { optionImageSchema } from '../../domain/option-image.js';
import type { MediaRef } from '../../domain/post-shape.js';
import type { RuleViolation } from '../../domain/rule-violation.js';

/**
 * `platformOptions.instagram` (networks/instagram.md §2): what a container takes beyond the media,
 * the caption, the alt text and the user tags (those stay on the media item: `media[i].alt`,
 * `media[i].userTags`). Which post types take which option is checked with the post
 * ({@link instagramOptionsViolations}), as Instagram refuses the others.
 */
export const INSTAGRAM_MAX_COLLABORATORS = 3;

/** Why `productTags` is refused (docs/research/network-extras.md §4b), said in the violation and the schema. */
export const PRODUCT_TAGS_REFUSAL =
  "Instagram product tags are not offered: the Instagram API with Instagram Login, which this service connects with, has no product tagging. Tagging exists only in the Instagram API's other login, through the account's Meta business Page, and needs an Instagram Business account with an approved Shop with checkout, and App Review for instagram_shopping_tag_products and catalog_management.";

/** A reel's cover image: a pre-uploaded image (`id`) or an image URL fetched at publish time. */
const coverImageSchema = optionImageSchema('a JPEG');

export const instagramOptionsSchema = z
  .strictObject({
    shareToFeed: z
      .boolean()
      .optional()
      .describe(
        'Reels only: also show the reel in the main feed (share_to_feed). Left out, Instagram shows it there.',
      ),
    thumbOffsetMs: z
      .int()
      .min(0)
      .optional()
      .describe(
        "Reels only: the cover frame, in milliseconds from the start (thumb_offset); past the video's end Instagram refuses the post.",
      ),
    locationId: z
      .string()
      .regex(/^[0-9]+$/, 'Expected the numeric id of a location Page.')
      .optional()
      .describe('Image, carousel and reel posts: the id of the location Page to tag (location_id).'),
    trialReel: z
      .strictObject({
        graduation: z
          .enum(['manual', 'auto'])
          .describe(
            'manual: shared to followers only when the account does so in the Instagram app (MANUAL); auto: Instagram shares it to followers if it performs well with non-followers (SS_PERFORMANCE).',
          ),
      })
      .optional()
      .describe(
        'Reels only: publish as a trial reel (trial_params), shown first to non-followers only. Not with shareToFeed. The API cannot graduate it later.',
      ),
    coverImage: coverImageSchema
      .optional()
      .describe(
        "Reels only: the reel's cover image (cover_url), a JPEG; not with thumbOffsetMs (the cover replaces the chosen frame).",
      ),
    productTags: z
      .array(z.unknown())
      .optional()
      .describe(`Always refused with a reason. ${PRODUCT_TAGS_REFUSAL}`),
    collaborators: z
      .array(z.string().regex(/^[A-Za-z0-9_.]{1,30}$/, 'Expected an Instagram username without @.'))
      .min(1)
      .max(INSTAGRAM_MAX_COLLABORATORS)
      .optional()
      .describe('Image, carousel and reel posts: up to 3 usernames invited as collaborators.'),
  })
  .meta({ id: 'InstagramOptions' });
export type InstagramOptions = z.output<typeof instagramOptionsSchema>;

const REEL_ONLY = ['shareToFeed', 'thumbOffsetMs', 'trialReel', 'coverImage'] as const;
const NOT_ON_STORIES = ['locationId', 'collaborators'] as const;

/** Options that the post's type cannot carry, or that Instagram takes only one of: 422, rather than an option silently dropped. */
export function instagramOptionsViolations({
  postType,
  options,
}: OptionsSubject<InstagramOptions>): RuleViolation[] {
  if (!options) return [];
  const refused = [
    ...(postType === 'reel' ? [] : REEL_ONLY.filter((name) => options[name] !== undefined)),
    ...(postType === 'story' ? NOT_ON_STORIES.filter((name) => options[name] !== undefined) : []),
  ];
  const out: RuleViolation[] = refused.map((name) => ({
    field: `platformOptions.instagram.${name}`,
    code: PLATFORM_OPTION_NOT_ALLOWED,
    message: `Instagram takes ${name} only on ${REEL_ONLY.includes(name as (typeof REEL_ONLY)[number]) ? 'reels' : 'image, carousel and reel posts'}; this post is a ${postType}.`,
  }));
  if (options.trialReel && options.shareToFeed !== undefined) {
    // A trial reel is shown to non-followers first: sharing it to the feed at once contradicts it.
    out.push(notTogether('shareToFeed', 'A trial reel goes to non-followers first; leave shareToFeed out.'));
  }
  if (options.coverImage && options.thumbOffsetMs !== undefined) {
    out.push(notTogether('thumbOffsetMs', 'Give the cover as coverImage or as thumbOffsetMs, not both.'));
  }
  if (options.productTags !== undefined) {
    out.push({
      field: 'platformOptions.instagram.productTags',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: PRODUCT_TAGS_REFUSAL,
    });
  }
  return out;
}

function notTogether(name: keyof InstagramOptions, message: string): RuleViolation {
  return { field: `platformOptions.instagram.${name}`, code: PLATFORM_OPTION_NOT_ALLOWED, message };
}

/** The media the options reference: a reel's cover (PublishRequest.optionMedia.coverImage). */
export function instagramOptionMedia(options: InstagramOptions): Readonly<Record<string, MediaRef>> {
  return options.coverImage ? { coverImage: options.coverImage } : {};
}

/** `platformOptions.instagram`, as the definition declares them. */
export const instagramOptions = {
  schema: instagramOptionsSchema,
  description:
    "Instagram: a reel's feed sharing, cover frame or image and trial, a location, collaborators (product tags are refused, with the reason).",
  violations: instagramOptionsViolations,
  media: instagramOptionMedia,
} satisfies NetworkOptions<typeof instagramOptionsSchema>;
