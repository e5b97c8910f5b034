import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { BLUESKY_MAX_LANGS } from './limits.js';

/** A BCP-47 language tag, loosely: Bluesky stores what it is given (lexicon `langs`). */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/**
 * `platformOptions.bluesky`: the post's languages and an explicit link card. Bluesky builds no
 * link preview itself (research §2d) and we fetch no page on the caller's behalf: a caller who
 * wants a card gives its address, title and description (docs/networks.md, Bluesky "Link cards").
 */
export const blueskyOptionsSchema = z
  .strictObject({
    langs: z
      .array(z.string().regex(LANGUAGE_TAG, 'Expected a BCP-47 language tag, e.g. en or pt-BR.'))
      .min(1)
      .max(BLUESKY_MAX_LANGS)
      .optional()
      .describe('The languages of the text (BCP-47 tags, at most 3), e.g. ["en"].'),
    linkCard: z
      .strictObject({
        uri: z
          .url({ protocol: /^https?$/ })
          .max(2000)
          .describe('The page the card links to.'),
        title: z.string().max(300).describe('The card title.'),
        description: z.string().max(1000).describe('The card description.'),
      })
      .optional()
      .describe(
        'Text posts only: a link preview card (app.bsky.embed.external) as given; Bluesky does not build one from the page, and neither do we.',
      ),
  })
  .meta({ id: 'BlueskyOptions' });
export type BlueskyOptions = z.output<typeof blueskyOptionsSchema>;

/** A card is the post's one embed: a post with images or a video has no room for it. */
export function blueskyOptionsViolations({
  postType,
  options,
}: OptionsSubject<BlueskyOptions>): RuleViolation[] {
  if (!options?.linkCard || postType === 'text') return [];
  return [
    {
      field: 'platformOptions.bluesky.linkCard',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: `Bluesky takes a link card only on text posts (a post embeds one thing); this post is a ${postType}.`,
    },
  ];
}

/** `platformOptions.bluesky`, as the definition declares them. */
export const blueskyOptions = {
  schema: blueskyOptionsSchema,
  description: 'Bluesky: the languages of the text, a link card.',
  violations: blueskyOptionsViolations,
} satisfies NetworkOptions<typeof blueskyOptionsSchema>;
