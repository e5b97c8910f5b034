import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
import type { RuleViolation } from '../../domain/rule-violation.js';

/** Meta gives no cap for a video's title; 255 characters is what its composer takes (our bound). */
export const FACEBOOK_MAX_TITLE = 255;

/**
 * `platformOptions.facebook` (facebook-pages.md §10): the link a text post previews, and the title
 * of a video or reel. Alt text stays on the media (`media[i].alt`). Which post types take which
 * option is checked with the post ({@link facebookOptionsViolations}).
 */
export const facebookOptionsSchema = z
  .strictObject({
    link: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .describe(
        'Text posts only: the link Facebook shows as a preview card under the text (`link`); Facebook reads its Open Graph tags when the post is made.',
      ),
    title: z
      .string()
      .min(1)
      .max(FACEBOOK_MAX_TITLE)
      .optional()
      .describe("Video and reel posts only: the video's title (`title`), beside the post text."),
  })
  .meta({ id: 'FacebookOptions' });
export type FacebookOptions = z.output<typeof facebookOptionsSchema>;

const TAKEN_BY: Readonly<Record<keyof FacebookOptions, { types: readonly string[]; words: string }>> = {
  link: { types: ['text'], words: 'text posts' },
  title: { types: ['video', 'reel'], words: 'video and reel posts' },
};

/** Options that the post's type cannot carry: 422, rather than an option silently dropped. */
export function facebookOptionsViolations({
  postType,
  options,
}: OptionsSubject<FacebookOptions>): RuleViolation[] {
  if (!options) return [];
  return (Object.keys(TAKEN_BY) as (keyof FacebookOptions)[])
    .filter((name) => options[name] !== undefined && !TAKEN_BY[name].types.includes(postType))
    .map((name) => ({
      field: `platformOptions.facebook.${name}`,
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: `Facebook takes ${name} only on ${TAKEN_BY[name].words}; this post is a ${postType}.`,
    }));
}

/** `platformOptions.facebook`, as the definition declares them. */
export const facebookOptions = {
  schema: facebookOptionsSchema,
  description: "Facebook: a text post's link preview, a video's or reel's title.",
  violations: facebookOptionsViolations,
} satisfies NetworkOptions<typeof facebookOptionsSchema>;
