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
 * link preview itself (research §2d): the post's `link` is the newer way to ask for one (we build
 * the card, from the page's Open Graph tags where the post gives no title, description or
 * thumbnail: link-card.ts); `linkCard` is the older form, sent exactly as given, kept working. The
 * rules refuse both on one post (docs/networks.md, Bluesky "Link cards").
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
        "The older form of the post's `link`, kept working: text posts only, a link preview card (app.bsky.embed.external) sent exactly as given, with no thumbnail and no page read. Not together with `link`.",
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
