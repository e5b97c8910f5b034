import * as z from 'zod';
import type { NetworkOptions } from '../../domain/network-options.js';

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

/** `platformOptions.twitter` (and its alias `x`), as the definition declares them. */
export const xOptions = {
  schema: twitterOptionsSchema,
  description: 'X (twitter): who may reply.',
} satisfies NetworkOptions<typeof twitterOptionsSchema>;
