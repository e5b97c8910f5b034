import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
import type { RuleViolation } from '../../domain/rule-violation.js';

/** LinkedIn post `visibility` (networks/linkedin.md); CONTAINER is for group posts, which we do not make. */
export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'] as const;
export type LinkedInVisibility = (typeof LINKEDIN_VISIBILITIES)[number];
/** What the connector sends when the caller leaves `visibility` out. */
export const LINKEDIN_DEFAULT_VISIBILITY: LinkedInVisibility = 'PUBLIC';

/** `member` posts as the connected member; an organization URN posts as that Page. */
export const LINKEDIN_MEMBER_AUTHOR = 'member';
export const LINKEDIN_ORGANIZATION_URN = /^urn:li:organization:[0-9]+$/;
const linkedInAuthor = z
  .union([
    z.literal(LINKEDIN_MEMBER_AUTHOR),
    z.string().regex(LINKEDIN_ORGANIZATION_URN, 'Expected member or urn:li:organization:<digits>.'),
  ])
  .describe(
    'member (the default) posts as the connected member; urn:li:organization:<id> posts as that Page, which the member must administer (LinkedIn checks it when the post is published).',
  );

/**
 * A poll's limits (Poll API, learn.microsoft.com/linkedin/marketing/community-management/shares/
 * poll-post-api: "a minimum of 2 poll options and a maximum of 4"; the question's 140 and an
 * option's 30 characters are the schema's figures as LinkedIn's partners quote them).
 */
export const LINKEDIN_POLL_QUESTION_MAX = 140;
export const LINKEDIN_POLL_OPTION_MAX = 30;
export const LINKEDIN_POLL_OPTIONS_MIN = 2;
export const LINKEDIN_POLL_OPTIONS_MAX = 4;

/** Our durations and LinkedIn's names for them (the Poll API's four). */
export const LINKEDIN_POLL_DURATIONS = {
  '1d': 'ONE_DAY',
  '3d': 'THREE_DAYS',
  '7d': 'SEVEN_DAYS',
  '14d': 'FOURTEEN_DAYS',
} as const;
export type LinkedInPollDuration = keyof typeof LINKEDIN_POLL_DURATIONS;
const DURATION_KEYS = Object.keys(LINKEDIN_POLL_DURATIONS) as [
  LinkedInPollDuration,
  ...LinkedInPollDuration[],
];

/** Counted as people count characters (code points), as LinkedIn's limits are. */
const upTo = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((text) => [...text].length <= max, `At most ${max} characters.`);

const linkedInPoll = z
  .strictObject({
    question: upTo(LINKEDIN_POLL_QUESTION_MAX).describe(
      `The question, at most ${LINKEDIN_POLL_QUESTION_MAX} characters (shown above the options; the post's text is shown above it).`,
    ),
    options: z
      .array(upTo(LINKEDIN_POLL_OPTION_MAX))
      .min(LINKEDIN_POLL_OPTIONS_MIN)
      .max(LINKEDIN_POLL_OPTIONS_MAX)
      .describe(
        `${LINKEDIN_POLL_OPTIONS_MIN} to ${LINKEDIN_POLL_OPTIONS_MAX} answers, each at most ${LINKEDIN_POLL_OPTION_MAX} characters.`,
      ),
    duration: z
      .enum(DURATION_KEYS)
      .describe('How long votes are taken: 1d, 3d, 7d or 14d (LinkedIn offers only these).'),
  })
  .describe(
    'Text posts only, without a link: a poll (one vote per member; the author sees who voted, as LinkedIn always shows). LinkedIn does not let a poll be edited once published.',
  );

export const linkedInOptionsSchema = z
  .strictObject({
    visibility: z
      .enum(LINKEDIN_VISIBILITIES)
      .optional()
      .describe('PUBLIC (the default), CONNECTIONS or LOGGED_IN.'),
    author: linkedInAuthor.optional(),
    poll: linkedInPoll.optional(),
  })
  .meta({ id: 'LinkedInOptions' });
export type LinkedInOptions = z.output<typeof linkedInOptionsSchema>;
export type LinkedInPoll = z.output<typeof linkedInPoll>;

/**
 * A poll is the post's one `content` (Posts API: one content type a post), so it goes only on a
 * text post; with a link it is refused by the rules (rules.ts), which see the post's `link`.
 */
export function linkedInOptionsViolations({
  postType,
  options,
}: OptionsSubject<LinkedInOptions>): RuleViolation[] {
  if (!options?.poll || postType === 'text') return [];
  return [
    {
      field: 'platformOptions.linkedin.poll',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: `LinkedIn takes a poll only on a text post (a poll is the post's one content, no media beside it); this post is a ${postType}.`,
    },
  ];
}

/** `platformOptions.linkedin`, as the definition declares them. */
export const linkedInOptions = {
  schema: linkedInOptionsSchema,
  description: 'LinkedIn: who sees the post, whether a Page posts it, and a poll.',
  violations: linkedInOptionsViolations,
} satisfies NetworkOptions<typeof linkedInOptionsSchema>;
