import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { THREADS_TOPIC_TAG_MAX } from './limits.js';

/** Threads `reply_control` (threads.md §4): who may reply. Left out, everyone may. */
export const THREADS_REPLY_CONTROLS = [
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
] as const;

const MEDIA_ID = z.string().regex(/^[0-9]{1,30}$/, 'Expected the numeric id of a Threads post.');

/**
 * `platformOptions.threads` (threads.md §13 "For our connector"): who may reply, the topic, the
 * link card of a text post, the post quoted, the post replied to. Which post types take which is
 * checked with the post ({@link threadsOptionsViolations}), as Threads refuses the others.
 */
export const threadsOptionsSchema = z
  .strictObject({
    replyControl: z
      .enum(THREADS_REPLY_CONTROLS)
      .optional()
      .describe(
        'Who may reply (reply_control): everyone, accounts_you_follow, mentioned_only, parent_post_author_only or followers_only; a thread applies it to each of its posts. Left out, everyone may.',
      ),
    topicTag: z
      .string()
      .min(1)
      .max(THREADS_TOPIC_TAG_MAX)
      .regex(/^[^.&]+$/, 'A Threads topic has no "." or "&".')
      .optional()
      .describe('The one topic of the post (topic_tag), without #: 1 to 50 characters, no "." or "&".'),
    linkAttachment: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        "Text posts only: the link shown as the post's preview card (link_attachment). Left out, Threads previews the text's first link.",
      ),
    quotePostId: MEDIA_ID.optional().describe(
      'The id of a Threads post to quote (quote_post_id); in a thread, its first post quotes it.',
    ),
    replyToId: MEDIA_ID.optional().describe(
      "The id of a post of the account's own to publish this post as a reply to (reply_to_id); in a thread, its first post replies to it.",
    ),
  })
  .meta({ id: 'ThreadsOptions' });
export type ThreadsOptions = z.output<typeof threadsOptionsSchema>;

/** Options that the post's type cannot carry: 422, rather than an option silently dropped. */
export function threadsOptionsViolations({
  postType,
  options,
}: OptionsSubject<ThreadsOptions>): RuleViolation[] {
  if (!options?.linkAttachment || postType === 'text') return [];
  return [
    {
      field: 'platformOptions.threads.linkAttachment',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: `Threads takes linkAttachment only on text posts; this post is a ${postType}.`,
    },
  ];
}

/** `platformOptions.threads`, as the definition declares them. */
export const threadsOptions = {
  schema: threadsOptionsSchema,
  description: 'Threads: who may reply, a topic, a text post’s link card, a post to quote or reply to.',
  violations: threadsOptionsViolations,
} satisfies NetworkOptions<typeof threadsOptionsSchema>;
