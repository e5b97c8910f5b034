import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { tweetIdOf } from './tweet-ref.js';

/** X `reply_settings` (networks/twitter.md): who may reply. Left out, everyone may. */
export const TWITTER_REPLY_SETTINGS = ['following', 'mentionedUsers', 'subscribers', 'verified'] as const;
export type TwitterReplySettings = (typeof TWITTER_REPLY_SETTINGS)[number];

/** X's CreatePostsPoll (x-api-v2-openapi.json): 2–4 options of 1–25 characters, 5 minutes to 7 days. */
export const X_POLL = {
  minOptions: 2,
  maxOptions: 4,
  maxOptionLength: 25,
  minMinutes: 5,
  maxMinutes: 10_080,
};

const tweetReference = (what: string) =>
  z
    .string()
    .max(300)
    .refine((value) => tweetIdOf(value) !== undefined, {
      message: 'Expected a post id (digits) or a post address such as https://x.com/<user>/status/<id>.',
    })
    .describe(
      `${what}: its id (digits) or its address (https://x.com/<user>/status/<id>, twitter.com too); only the id is sent.`,
    );

export const twitterOptionsSchema = z
  .strictObject({
    replySettings: z
      .enum(TWITTER_REPLY_SETTINGS)
      .optional()
      .describe(
        'Who may reply (X reply_settings): following, mentionedUsers, subscribers or verified. Left out, everyone may.',
      ),
    poll: z
      .strictObject({
        options: z
          .array(z.string().min(1).max(X_POLL.maxOptionLength))
          .min(X_POLL.minOptions)
          .max(X_POLL.maxOptions)
          .describe('The choices, 2 to 4, each 1 to 25 characters. The post text is the question.'),
        durationMinutes: z
          .number()
          .int()
          .min(X_POLL.minMinutes)
          .max(X_POLL.maxMinutes)
          .describe('How long the poll is open, in minutes: 5 to 10080 (7 days).'),
      })
      .optional()
      .describe(
        'Text posts only: a poll (X poll). Not with media, a quote or on a thread: X notes a poll is mutually exclusive with media and with a quoted post.',
      ),
    quoteOf: tweetReference('The post this one quotes (X quote_tweet_id)').optional(),
    replyTo: tweetReference(
      'The post this one replies to (X reply.in_reply_to_tweet_id); on a thread, its first post replies to it',
    ).optional(),
    communityId: z
      .string()
      .regex(/^[0-9]{1,19}$/, 'Expected the Community id: the digits of https://x.com/i/communities/<id>.')
      .optional()
      .describe(
        'The X Community to post in (X community_id), the digits of https://x.com/i/communities/<id>; the account must be a member. On a thread, its first post.',
      ),
  })
  .meta({ id: 'TwitterOptions' });
export type TwitterOptions = z.output<typeof twitterOptionsSchema>;

/**
 * A poll goes on a single text post. X's schema notes (CreatePostsPoll, and the `poll`/`card_uri`
 * descriptions of the same request) say a poll is mutually exclusive with media and with a quoted
 * post; they say nothing of a poll on a reply, and every post of a thread after the first is one,
 * so a poll on a thread is refused rather than left to chance.
 */
export function twitterOptionsViolations({
  postType,
  options,
}: OptionsSubject<TwitterOptions>): RuleViolation[] {
  if (!options?.poll) return [];
  const field = 'platformOptions.twitter.poll';
  const out: RuleViolation[] = [];
  if (postType !== 'text') {
    const why =
      postType === 'thread'
        ? 'X documents polls on a single post only (a thread is replies), so a poll goes on a text post'
        : 'X notes a poll is mutually exclusive with media';
    out.push({
      field,
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: `An X poll goes on text posts only: ${why}; this post is a ${postType}.`,
    });
  }
  if (options.quoteOf !== undefined) {
    out.push({
      field,
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message:
        'An X poll cannot quote a post: X notes a poll is mutually exclusive with a quoted post (quoteOf).',
    });
  }
  return out;
}

/** `platformOptions.twitter` (and its alias `x`), as the definition declares them. */
export const xOptions = {
  schema: twitterOptionsSchema,
  description: 'X (twitter): who may reply, a poll, a quoted post, the post replied to, a Community.',
  violations: twitterOptionsViolations,
} satisfies NetworkOptions<typeof twitterOptionsSchema>;
