import * as z from 'zod';
import { EXTERNAL_ID_PATTERN, EXTERNAL_ID_RULE } from '../../domain/external-id.js';
import { describeUrlRefusal, urlRefusal } from '../../domain/fetchable-url.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../domain/idempotency.js';
import {
  hasPlatformOptions,
  type PlatformOptions,
  platformOptionsInput,
  platformOptionsSchema,
} from '../../domain/platform-options.js';
import { PLATFORM_NAMES, PLATFORMS, platformOfName } from '../../domain/platforms.js';
import { POST_TYPES_BY_PLATFORM } from '../../domain/post-types.js';
import {
  FIRST_COMMENT_STATUSES,
  MEDIA_KINDS,
  POST_STATUSES,
  POST_TYPES,
  type Post,
  REQUESTED_STATUSES,
} from '../../domain/posts.js';
import {
  declaredWarnings,
  NETWORK_NAMES,
  PLATFORM_IDS,
  platformsDescribed,
  RULES_OF_PLATFORM,
  warningExamplesOf,
} from '../../networks/definitions.js';
import { idOf, isoTimestamp } from '../common-schemas.js';

/** Platform names accepted on input; an alias (`x`) is stored as its platform (docs/api-decisions.md). */
export const platformInput = z
  .enum(PLATFORM_NAMES)
  .transform(platformOfName)
  .describe(platformsDescribed((alias, platform) => `${alias} is accepted and stored as ${platform}`));

/**
 * A time a caller sends: ISO 8601 (RFC 3339) with `Z` or any `±hh:mm` offset, turned into UTC `Z`
 * at millisecond precision, so that stored times sort as text and every answer gives them in UTC.
 */
export const utcTimestamp = z.iso
  .datetime({
    offset: true,
    message:
      'Expected an ISO 8601 timestamp with Z or an offset, e.g. 2026-12-01T09:30:00Z or 2026-12-01T10:30:00+01:00.',
  })
  .transform((value) => new Date(value).toISOString());

/** How a field taking utcTimestamp says what it accepts; `what` is the field's own sentence. */
const acceptsAnyOffset = (what: string) =>
  `${what} ISO 8601 with Z or any offset (2026-12-01T10:30:00+01:00); stored and returned in UTC.`;

/** The networks that tag people on media (their rules say so); every other platform refuses userTags. */
const USER_TAG_PLATFORMS = PLATFORM_IDS.filter((platform) => RULES_OF_PLATFORM[platform].takesUserTags);
const USER_TAG_NETWORK_NAMES = USER_TAG_PLATFORMS.map((platform) => NETWORK_NAMES[platform]).join(' or ');

const userTagSchema = z.strictObject({
  username: z.string().min(1).max(30).describe(`The ${USER_TAG_NETWORK_NAMES} user to tag, without @.`),
  x: z.number().min(0).max(1).describe('0.0–1.0 from the left edge'),
  y: z.number().min(0).max(1).describe('0.0–1.0 from the top edge'),
});

/**
 * A URL the service may fetch: everything the SSRF-safe fetcher would refuse without a DNS lookup
 * (not HTTPS, credentials, a port other than 443, localhost, a private literal address) is a 400
 * naming the field now, rather than a failed post or import later.
 */
export function checkPublicUrl(value: string, ctx: z.RefinementCtx) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'Not a URL.', path: ['url'] });
    return;
  }
  const refusal = urlRefusal(url);
  if (refusal) ctx.addIssue({ code: 'custom', message: describeUrlRefusal(refusal), path: ['url'] });
}

export const mediaRefSchema = z
  .strictObject({
    id: idOf('media').optional().describe('A pre-uploaded media id (med_...). Use either id or url.'),
    url: z.string().max(2048).optional().describe('A public HTTPS URL, fetched at publish time; needs type.'),
    type: z.enum(MEDIA_KINDS).optional().describe('image, video or document (a PDF); required with url.'),
    alt: z.string().max(1500).optional().describe('Accessibility text, used by platforms that show it.'),
    userTags: z.array(userTagSchema).max(20).optional().describe('Photo network only.'),
  })
  .superRefine((ref, ctx) => {
    if ((ref.id === undefined) === (ref.url === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'Give exactly one of id or url.' });
    }
    if (ref.url !== undefined) {
      checkPublicUrl(ref.url, ctx);
      if (!ref.type) ctx.addIssue({ code: 'custom', message: 'A url needs its type.', path: ['type'] });
    }
  })
  // The refinement's rules, said in the document too: exactly one of id or url, and a url's type.
  .meta({
    id: 'MediaRef',
    oneOf: [{ required: ['id'] }, { required: ['url'] }],
    dependentRequired: { url: ['type'] },
  });

export const contentItemSchema = z
  .strictObject({
    text: z.string().max(10_000).optional().describe("This part's text."),
    media: z.array(mediaRefSchema).max(35).optional().describe("This part's media."),
  })
  .refine((item) => (item.text !== undefined && item.text !== '') || (item.media?.length ?? 0) > 0, {
    message: 'A content item needs text or media.',
  });

export const contentSchema = z
  .union([z.string().max(10_000), z.array(contentItemSchema).min(1).max(35)])
  .describe('The post text, or one item per part of a thread or carousel.');

/** userTags belong to the networks that take them only; the rest of the checks are the platform rules (422). */
function checkUserTagsPlatform(
  platform: string | undefined,
  media: z.output<typeof mediaRefSchema>[],
  path: (string | number)[],
  ctx: z.RefinementCtx,
) {
  if (platform === undefined || USER_TAG_PLATFORMS.some((taker) => taker === platform)) return;
  media.forEach((ref, index) => {
    if (ref.userTags?.length) {
      ctx.addIssue({
        code: 'custom',
        message: `userTags are for ${USER_TAG_PLATFORMS.join(' or ')} posts only.`,
        path: [...path, index, 'userTags'],
      });
    }
  });
}

export function checkAllUserTags(
  body: {
    platform?: string;
    content?: z.output<typeof contentSchema>;
    media?: z.output<typeof mediaRefSchema>[];
  },
  ctx: z.RefinementCtx,
) {
  checkUserTagsPlatform(body.platform, body.media ?? [], ['media'], ctx);
  if (Array.isArray(body.content)) {
    body.content.forEach((item, index) => {
      checkUserTagsPlatform(body.platform, item.media ?? [], ['content', index, 'media'], ctx);
    });
  }
}

/** Media beside the content (a comment's, a link's thumbnail) tags nobody. */
const untaggedMediaRef = mediaRefSchema.refine((ref) => ref.userTags === undefined, {
  message: "userTags are for the post's own media only.",
  path: ['userTags'],
});

export const firstCommentInput = z
  .strictObject({
    text: z.string().min(1).max(10_000).describe("Checked against each network's own limit."),
    media: z
      .array(untaggedMediaRef)
      .max(4)
      .optional()
      .describe("Where the network's comments take media (listNetworks)."),
  })
  .meta({ id: 'FirstCommentInput' })
  .describe(
    'Made by the same account on the post once it is published, as a call of its own: it never fails the post, and is never made twice. Where: listNetworks.',
  );

export const linkInput = z
  .strictObject({
    url: z
      .string()
      .max(2048)
      .superRefine((url, ctx) => checkPublicUrl(url, ctx))
      .describe('The page the card shows (public HTTPS).'),
    title: z.string().min(1).max(400).optional().describe('Where we build the card; else og:title.'),
    description: z.string().max(4000).optional().describe('Where we build the card; else og:description.'),
    thumbnail: untaggedMediaRef.optional().describe('An image, where we build the card; else og:image.'),
  })
  .meta({ id: 'LinkInput' })
  .describe('A link card; title, description, thumbnail only where we build it. Where: listNetworks.');

export const externalIdInput = z
  .string()
  .regex(EXTERNAL_ID_PATTERN, EXTERNAL_ID_RULE)
  .describe('Your own id for the post (a calendar entry), not unique; listPosts filters by it or a prefix.');

/** What each network takes, from its definition: `twitter: text, image, video, thread; …`. */
const postTypesByPlatform = Object.entries(POST_TYPES_BY_PLATFORM)
  .map(([platform, types]) => `${platform}: ${types.join(', ')}`)
  .join('; ');

const postTypeInput = z
  .enum(POST_TYPES)
  .describe(`The kind of post; each network takes its own: ${postTypesByPlatform}.`);

/** On create, null and {} mean none, so equal requests hash equally for the Idempotency-Key. */
const newPostOptions = platformOptionsInput
  .nullable()
  .optional()
  .transform((options): PlatformOptions | undefined => (hasPlatformOptions(options) ? options : undefined))
  .describe('Optional; null or {} means none.');

/** On PATCH, the options given replace the post's; null and {} remove them. */
const changedPostOptions = platformOptionsInput
  .nullable()
  .optional()
  .transform((options): PlatformOptions | null | undefined =>
    options === undefined ? undefined : hasPlatformOptions(options) ? options : null,
  )
  .describe("Replaces the post's platformOptions; null or {} removes them.");

export const createPostBody = z
  .strictObject({
    platform: platformInput,
    accountId: idOf('account'),
    status: z
      .enum(REQUESTED_STATUSES)
      .describe('publish: deliver now; scheduled: at scheduledAt; draft: keep.'),
    postType: postTypeInput,
    content: contentSchema,
    scheduledAt: utcTimestamp
      .optional()
      .describe(acceptsAnyOffset('Required with status scheduled; must be in the future.')),
    media: z.array(mediaRefSchema).max(35).optional().describe('Media of a post whose content is a string.'),
    platformOptions: newPostOptions,
    firstComment: firstCommentInput
      .nullable()
      .optional()
      .transform((comment) => comment ?? undefined),
    link: linkInput
      .nullable()
      .optional()
      .transform((link) => link ?? undefined),
    externalId: externalIdInput.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.status === 'scheduled' && !body.scheduledAt) {
      ctx.addIssue({ code: 'custom', message: 'Required when status is scheduled.', path: ['scheduledAt'] });
    }
    if (body.status === 'publish' && body.scheduledAt) {
      ctx.addIssue({
        code: 'custom',
        message: 'Only for status scheduled or draft; publish means now.',
        path: ['scheduledAt'],
      });
    }
    checkAllUserTags(body, ctx);
  });

export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, '1–255 visible ASCII characters.')
    .optional()
    .describe('Makes the create safe to retry: the same key replays the first answer for 24 hours.'),
});

export const updatePostBody = z
  .strictObject({
    scheduledAt: utcTimestamp
      .nullable()
      .optional()
      .describe(acceptsAnyOffset('A new time; null removes it (drafts only).')),
    content: contentSchema.optional(),
    media: z
      .array(mediaRefSchema)
      .max(35)
      .optional()
      .describe('Replaces the media of a post whose content is a string.'),
    postType: postTypeInput.optional(),
    status: z.enum(REQUESTED_STATUSES).optional().describe('publish, scheduled or draft.'),
    platformOptions: changedPostOptions,
    firstComment: firstCommentInput
      .nullable()
      .optional()
      .describe('Replaces the first comment; null removes it.'),
    link: linkInput.nullable().optional().describe('Replaces the link card; null removes it.'),
    externalId: externalIdInput.nullable().optional().describe('null removes it.'),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Name at least one field to change.' });

export const rejectPostBody = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .describe('Why; stored on the post and sent in approval.decided.'),
});

export const postPathParams = z.object({ workspace_id: idOf('workspace'), post_id: idOf('post') });

export const listPostsQuery = z.object({
  status: z
    .enum(POST_STATUSES)
    .optional()
    .describe('Only posts in this status; with scheduled, ordered by scheduledAt ascending.'),
  accountId: idOf('account').optional(),
  platform: platformInput.optional(),
  scheduledFrom: utcTimestamp
    .optional()
    .describe('Earliest scheduledAt (inclusive). ISO 8601 with Z or any offset, compared in UTC.'),
  scheduledTo: utcTimestamp
    .optional()
    .describe(
      'Latest scheduledAt (inclusive). Alone, with status=scheduled: the collision check. ISO 8601 with Z or any offset, compared in UTC.',
    ),
  // No pattern: an id no post may carry simply matches none.
  externalId: z.string().min(1).max(200).optional().describe('Exactly this externalId.'),
  externalIdPrefix: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('externalId starting so (`launch/`), in externalId order.'),
});

/** One index serves a listing: an exact externalId or a prefix, not both. */
export function checkExternalIdFilters(
  query: { externalId?: string; externalIdPrefix?: string },
  ctx: z.RefinementCtx,
): void {
  if (query.externalId !== undefined && query.externalIdPrefix !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'Give externalId or externalIdPrefix, not both.',
      path: ['externalIdPrefix'],
    });
  }
}

/** An inverted range selects nothing and is almost surely a mistake: say so (400). */
export function checkScheduledRange(
  query: { scheduledFrom?: string; scheduledTo?: string },
  ctx: z.RefinementCtx,
): void {
  if (query.scheduledFrom && query.scheduledTo && query.scheduledFrom > query.scheduledTo) {
    ctx.addIssue({ code: 'custom', message: 'Must not be later than scheduledTo.', path: ['scheduledFrom'] });
  }
}

const storedMediaRef = z.object({
  id: z.string().optional(),
  url: z.string().optional(),
  type: z.enum(MEDIA_KINDS).optional(),
  alt: z.string().optional(),
  userTags: z.array(z.object({ username: z.string(), x: z.number(), y: z.number() })).optional(),
});

/** The warning codes the networks declare (their definitions' warningExamples). */
const NETWORK_WARNING_CODES = declaredWarnings().map(({ code }) => code);
/** Those beyond the three every network shares, each with its example(s). */
const OTHER_WARNINGS = declaredWarnings()
  .filter(
    ({ code }) =>
      !['PLATFORM_POST_ID_PENDING', 'PLATFORM_POST_ID_UNAVAILABLE', 'PLATFORM_VISIBILITY_CHANGED'].includes(
        code,
      ),
  )
  .map(({ code, examples }) => `${code} (${examples.join('; ')})`)
  .join('; ');

/** A warning's meaning, with the networks' examples of it in parentheses (their definitions give them). */
function withExamples(meaning: string, code: string): string {
  const examples = warningExamplesOf(code);
  return examples.length === 0 ? meaning : `${meaning} (${examples.join('; ')})`;
}

export const postWarningSchema = z
  .object({
    code: z
      .string()
      .describe(
        `Stable: PLATFORM_POST_ID_PENDING, PLATFORM_POST_ID_UNAVAILABLE, and each network's own (${NETWORK_WARNING_CODES.join(', ')}).`,
      ),
    message: z.string().describe('Human text; do not match on it.'),
  })
  .meta({ id: 'PostWarning' });

const postErrorSchema = z.object({
  origin: z.enum(['platform', 'service']),
  code: z.string(),
  message: z.string(),
  platformRawCode: z.string().optional(),
  retryable: z.boolean(),
});

export const firstCommentResource = z
  .object({
    text: z.string(),
    media: z.array(storedMediaRef),
    status: z
      .enum(FIRST_COMMENT_STATUSES)
      .describe(
        'waiting: the post is not published yet; queued: due (a first try, a retry, or a check while the network processes it); publishing; published; failed: refused, or retries ran out (error), the post stays published; uncertain: a call ended without an answer and the network cannot say whether it has the comment: never tried again (check the post).',
      ),
    attempts: z.number().int(),
    platformCommentId: z.string().nullable(),
    platformCommentUrl: z.string().nullable(),
    publishedAt: isoTimestamp.nullable(),
    error: postErrorSchema.nullable(),
  })
  .meta({ id: 'FirstComment' });

export const linkResource = z
  .object({
    url: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    thumbnail: storedMediaRef.optional(),
  })
  .meta({ id: 'Link' });

export const postResource = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    accountId: z.string(),
    platform: z.enum(PLATFORMS),
    postType: z.enum(POST_TYPES),
    status: z.enum(POST_STATUSES),
    content: z.union([
      z.string(),
      z.array(z.object({ text: z.string().optional(), media: z.array(storedMediaRef).optional() })),
    ]),
    media: z.array(storedMediaRef),
    scheduledAt: isoTimestamp.nullable(),
    platformOptions: platformOptionsSchema
      .nullable()
      .describe("The network's own settings given on create or PATCH; null when none."),
    firstComment: firstCommentResource
      .nullable()
      .describe('The first comment and how its delivery went; null when none.'),
    link: linkResource.nullable().describe('The link card; null when none.'),
    externalId: z.string().nullable().describe('Your own id for the post; null when none.'),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    publishedAt: isoTimestamp.nullable(),
    platformPostId: z.string().nullable(),
    platformPostUrl: z.string().nullable(),
    warnings: z
      .array(postWarningSchema)
      .describe(
        `What to know of a published post beside its id (empty: nothing). PLATFORM_POST_ID_PENDING: ${withExamples('the network published it but names it later', 'PLATFORM_POST_ID_PENDING')}: platformPostId and platformPostUrl are filled in when it does. PLATFORM_POST_ID_UNAVAILABLE: it never did within three days. PLATFORM_VISIBILITY_CHANGED: ${withExamples('the network made it visible otherwise than asked', 'PLATFORM_VISIBILITY_CHANGED')}. The networks' own, each with an example: ${OTHER_WARNINGS}.`,
      ),
    attempts: z.number().int(),
    error: postErrorSchema.nullable(),
    approval: z
      .object({
        status: z.enum(['pending', 'approved', 'rejected']),
        requestedAt: isoTimestamp,
        decidedAt: isoTimestamp.optional(),
        decidedBy: z.string().optional(),
        reason: z.string().optional(),
      })
      .nullable(),
  })
  .meta({ id: 'Post' });

export const createdPostResource = z
  .object({
    id: z.string(),
    status: z.enum(POST_STATUSES),
    platform: z.enum(PLATFORMS),
    postType: z.enum(POST_TYPES),
    createdAt: isoTimestamp,
  })
  .meta({ id: 'CreatedPost' });

export function toPostResource(post: Post): z.input<typeof postResource> {
  return {
    id: post.postId,
    workspaceId: post.workspaceId,
    accountId: post.accountId,
    platform: post.platform,
    postType: post.postType,
    status: post.status,
    content: post.content,
    media: post.media,
    scheduledAt: post.scheduledAt ?? null,
    platformOptions: post.platformOptions ?? null,
    firstComment: post.firstComment ? firstCommentOut(post.firstComment) : null,
    link: post.link ?? null,
    externalId: post.externalId ?? null,
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    publishedAt: post.publishedAt ?? null,
    platformPostId: post.platformPostId ?? null,
    platformPostUrl: post.platformPostUrl ?? null,
    warnings: post.warnings ?? [],
    attempts: post.attempts,
    error: post.error ?? null,
    approval: post.approval ?? null,
  };
}

function firstCommentOut(comment: NonNullable<Post['firstComment']>): z.input<typeof firstCommentResource> {
  return {
    text: comment.text,
    media: comment.media ?? [],
    status: comment.status,
    attempts: comment.attempts,
    platformCommentId: comment.platformCommentId ?? null,
    platformCommentUrl: comment.platformCommentUrl ?? null,
    publishedAt: comment.publishedAt ?? null,
    error: comment.error ?? null,
  };
}
