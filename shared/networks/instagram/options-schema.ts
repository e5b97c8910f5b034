import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
import type { RuleViolation } from '../../domain/rule-violation.js';

/**
 * `platformOptions.instagram` (networks/instagram.md §2): what a container takes beyond the media,
 * the caption, the alt text and the user tags (those stay on the media item: `media[i].alt`,
 * `media[i].userTags`). Which post types take which option is checked with the post
 * ({@link instagramOptionsViolations}), as Instagram refuses the others.
 */
export const INSTAGRAM_MAX_COLLABORATORS = 3;

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
    collaborators: z
      .array(z.string().regex(/^[A-Za-z0-9_.]{1,30}$/, 'Expected an Instagram username without @.'))
      .min(1)
      .max(INSTAGRAM_MAX_COLLABORATORS)
      .optional()
      .describe('Image, carousel and reel posts: up to 3 usernames invited as collaborators.'),
  })
  .meta({ id: 'InstagramOptions' });
export type InstagramOptions = z.output<typeof instagramOptionsSchema>;

const REEL_ONLY = ['shareToFeed', 'thumbOffsetMs'] as const;
const NOT_ON_STORIES = ['locationId', 'collaborators'] as const;

/** Options that the post's type cannot carry: 422, rather than an option silently dropped. */
export function instagramOptionsViolations({
  postType,
  options,
}: OptionsSubject<InstagramOptions>): RuleViolation[] {
  if (!options) return [];
  const refused = [
    ...(postType === 'reel' ? [] : REEL_ONLY.filter((name) => options[name] !== undefined)),
    ...(postType === 'story' ? NOT_ON_STORIES.filter((name) => options[name] !== undefined) : []),
  ];
  return refused.map((name) => ({
    field: `platformOptions.instagram.${name}`,
    code: PLATFORM_OPTION_NOT_ALLOWED,
    message: `Instagram takes ${name} only on ${REEL_ONLY.includes(name as (typeof REEL_ONLY)[number]) ? 'reels' : 'image, carousel and reel posts'}; this post is a ${postType}.`,
  }));
}

/** `platformOptions.instagram`, as the definition declares them. */
export const instagramOptions = {
  schema: instagramOptionsSchema,
  description: "Instagram: a reel's feed sharing and cover frame, a location, collaborators.",
  violations: instagramOptionsViolations,
} satisfies NetworkOptions<typeof instagramOptionsSchema>;
