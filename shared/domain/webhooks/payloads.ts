import * as z from 'zod';
import { EVENT_TYPES, type EventType, type ServiceEvent } from '../events.js';
import { newId } from '../ids.js';
import { POST_METRIC_NAMES } from '../metrics.js';
import { PLATFORMS } from '../platforms.js';

/**
 * The bodies a webhook receiver gets (docs/api-decisions.md#webhooks; docs/webhooks.md), as zod schemas: the
 * dispatcher validates every body against them before signing it, and the OpenAPI document's
 * top-level `webhooks` section is generated from the same schemas, so the two cannot differ.
 *
 * The envelope is `{ id, type, createdAt, workspaceId, data }`. `tenantId` routes an event inside
 * the service and is never delivered. Objects are not strict on purpose: a receiver must accept
 * fields added later, and parsing drops any field the schema does not name, so nothing internal
 * can leak into a body by accident.
 */

/** Sent by `POST …/webhooks/{webhook_id}/test` to that webhook only; nobody subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Every `type` a delivered body can carry: the subscribable events and the test event. */
export const DELIVERED_EVENT_TYPES = [...EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type DeliveredEventType = (typeof DELIVERED_EVENT_TYPES)[number];

const timestamp = z.iso.datetime({ offset: false }).describe('ISO 8601, UTC.');
const eventId = z
  .string()
  .regex(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('Stable for one state change: a redelivery carries the same id. Deduplicate on it.');

const postError = z
  .object({
    origin: z.enum(['platform', 'service']),
    code: z.string().describe('Stable machine code, such as MEDIA_TOO_LARGE.'),
    message: z.string(),
    platformRawCode: z.string().optional().describe("The network's own code, when it gave one."),
    retryable: z.boolean().describe('False: resubmitting the same content will not help.'),
  })
  .describe('Why delivery failed (or, on other post events, why the last attempt did).');

/** What every post event carries; each event narrows `status` and what it guarantees. */
const postData = z.object({
  postId: z.string(),
  status: z.string(),
  platform: z.enum(PLATFORMS),
  accountId: z.string(),
  scheduledAt: timestamp.optional(),
  platformPostId: z.string().optional(),
  platformPostUrl: z.string().optional(),
  publishedAt: timestamp.optional(),
  error: postError.optional(),
  warnings: z
    .array(
      z.object({
        code: z
          .string()
          .describe(
            'PLATFORM_POST_ID_PENDING, PLATFORM_POST_ID_UNAVAILABLE, PLATFORM_VISIBILITY_CHANGED, TEXT_NOT_SENT_TO_INBOX.',
          ),
        message: z.string(),
      }),
    )
    .optional()
    .describe(
      'What to know of a published post beside its id (docs/webhooks.md). With PLATFORM_POST_ID_PENDING, platformPostId and platformPostUrl are absent: the network names the post later, and the post (GET) has them once it does; no further event is sent.',
    ),
});

/** A first comment's events (docs/first-comment.md): the post it is on, and how the comment ended. */
const firstCommentData = z.object({
  postId: z.string(),
  platform: z.enum(PLATFORMS),
  accountId: z.string(),
  platformPostId: z.string().optional().describe('The published post the comment is on.'),
  firstComment: z.object({
    status: z
      .enum(['published', 'failed', 'uncertain'])
      .describe(
        'published; failed: refused, or its retries ran out; uncertain: a call ended without an answer and the network cannot say whether it has the comment (never posted again).',
      ),
    attempts: z.number().int(),
    platformCommentId: z.string().optional(),
    platformCommentUrl: z.string().optional(),
    publishedAt: timestamp.optional(),
    error: postError.optional().describe('Why the comment failed; the post itself stays published.'),
  }),
});

const dataSchemas = {
  'post.queued': postData.extend({ status: z.literal('queued') }),
  'post.scheduled': postData.extend({ status: z.literal('scheduled'), scheduledAt: timestamp }),
  'post.published': postData.extend({ status: z.literal('published'), publishedAt: timestamp }),
  'post.failed': postData.extend({ status: z.literal('failed'), error: postError }),
  'post.awaiting_creator': postData.extend({ status: z.literal('awaiting_creator') }),
  'approval.requested': z.object({ postId: z.string() }),
  'approval.decided': z.object({
    postId: z.string(),
    decision: z.enum(['approved', 'rejected']),
    reviewer: z.string().optional().describe('Agent id of the reviewer.'),
    reason: z.string().optional(),
  }),
  'account.disconnected': z.object({
    accountId: z.string(),
    platform: z.enum(PLATFORMS),
    reason: z.string().describe('Why the network withdrew the authorisation, as it said it.'),
  }),
  'post.metrics': z.object({
    postId: z.string(),
    platform: z.enum(PLATFORMS),
    accountId: z.string(),
    collectedAt: timestamp.describe('When the service read the numbers (ISO 8601, UTC).'),
    metrics: z
      .object(
        Object.fromEntries(POST_METRIC_NAMES.map((name) => [name, z.number().nonnegative().optional()])),
      )
      .describe(
        "The post's numbers in the service's vocabulary (docs/metrics.md); a field is present only where the network reports it.",
      ),
  }),
  'post.first_comment_published': firstCommentData,
  'post.first_comment_failed': firstCommentData,
  'webhook.test': z.object({
    webhookId: z.string(),
    message: z.string().describe('Human text; do not match on it.'),
  }),
} as const satisfies Record<DeliveredEventType, z.ZodType>;

/** When each event is sent (interface section 6), for the schemas' descriptions. */
const EMITTED_WHEN: Record<DeliveredEventType, string> = {
  'post.queued': 'A post is accepted and waits for delivery (also when a scheduled post comes due).',
  'post.scheduled': 'A scheduled post is accepted (or moved) and will fire at `scheduledAt`.',
  'post.published': 'The post was delivered to the target network.',
  'post.failed': 'Final failure after retries; `error` says why.',
  'post.awaiting_creator':
    "The post was delivered as a draft to the creator's inbox on the network (a network's inbox mode, docs/networks.md); the creator finishes and posts it in the network's app. Final: no platformPostId, never published nor failed for the service (docs/post-lifecycle.md).",
  'approval.requested': 'A post entered an approval gate.',
  'approval.decided': 'A reviewer approved or rejected a post.',
  'account.disconnected':
    'An OAuth token was revoked, a refresh failed, or the account was disconnected through the API; it needs reconnecting.',
  'post.metrics':
    "A scheduled collection (or a refresh) read a published post's numbers and they changed since the last reading.",
  'post.first_comment_published': "A published post's first comment was made on the network.",
  'post.first_comment_failed':
    "A published post's first comment failed or ended uncertain; the post stays published (docs/first-comment.md).",
  'webhook.test': 'Sent on request to one webhook, to try the receiver; no state changed.',
};

/** PascalCase component name: `post.published` → `PostPublishedEvent`. */
function componentName(type: DeliveredEventType): string {
  const words = type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join('')}Event`;
}

function envelope<T extends DeliveredEventType>(type: T) {
  return z
    .object({
      id: eventId,
      type: z.literal(type),
      createdAt: timestamp.describe('When the state change happened (ISO 8601, UTC).'),
      workspaceId: z.string(),
      data: dataSchemas[type],
    })
    .meta({ id: componentName(type), description: EMITTED_WHEN[type] });
}

/** The schema of the whole delivered body, per event type (the source of OpenAPI's `webhooks`). */
export const WEBHOOK_EVENT_SCHEMAS = {
  'post.queued': envelope('post.queued'),
  'post.scheduled': envelope('post.scheduled'),
  'post.published': envelope('post.published'),
  'post.failed': envelope('post.failed'),
  'post.awaiting_creator': envelope('post.awaiting_creator'),
  'approval.requested': envelope('approval.requested'),
  'approval.decided': envelope('approval.decided'),
  'account.disconnected': envelope('account.disconnected'),
  'post.metrics': envelope('post.metrics'),
  'post.first_comment_published': envelope('post.first_comment_published'),
  'post.first_comment_failed': envelope('post.first_comment_failed'),
  'webhook.test': envelope('webhook.test'),
} as const;

/** Any delivered body. */
export const deliveredEnvelopeSchema = z.discriminatedUnion('type', [
  WEBHOOK_EVENT_SCHEMAS['post.queued'],
  WEBHOOK_EVENT_SCHEMAS['post.scheduled'],
  WEBHOOK_EVENT_SCHEMAS['post.published'],
  WEBHOOK_EVENT_SCHEMAS['post.failed'],
  WEBHOOK_EVENT_SCHEMAS['post.awaiting_creator'],
  WEBHOOK_EVENT_SCHEMAS['approval.requested'],
  WEBHOOK_EVENT_SCHEMAS['approval.decided'],
  WEBHOOK_EVENT_SCHEMAS['account.disconnected'],
  WEBHOOK_EVENT_SCHEMAS['post.metrics'],
  WEBHOOK_EVENT_SCHEMAS['post.first_comment_published'],
  WEBHOOK_EVENT_SCHEMAS['post.first_comment_failed'],
  WEBHOOK_EVENT_SCHEMAS['webhook.test'],
]);
export type DeliveredEnvelope = z.output<typeof deliveredEnvelopeSchema>;

/** An event that does not match its own schema: a bug of the service, never the receiver's. */
export class WebhookPayloadError extends Error {
  constructor(
    readonly eventId: string,
    readonly eventType: string,
    /** Where the event differs from its schema (paths and codes only, never values). */
    readonly problems: string[],
  ) {
    super(`Event ${eventId} (${eventType}) does not match its webhook schema: ${problems.join('; ')}`);
    this.name = 'WebhookPayloadError';
  }
}

/**
 * The body delivered for one event: the envelope without `tenantId`, checked against the event's
 * schema (and stripped of any field it does not name). Throws `WebhookPayloadError` rather than
 * send a body the documentation does not describe.
 */
export function toDeliveredEnvelope(event: ServiceEvent): DeliveredEnvelope {
  const { tenantId: _routingOnly, ...delivered } = event;
  const schema: z.ZodType<DeliveredEnvelope> | undefined = WEBHOOK_EVENT_SCHEMAS[event.type as EventType];
  if (!schema) throw new WebhookPayloadError(event.id, String(event.type), ['type: not an event type']);
  const result = schema.safeParse(delivered);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.code}`);
    throw new WebhookPayloadError(event.id, event.type, problems);
  }
  return result.data;
}

/** The `webhook.test` body for one webhook: a new event id each time, since each test is its own. */
export function webhookTestEnvelope(webhook: { webhookId: string; workspaceId: string }, nowMs: number) {
  return WEBHOOK_EVENT_SCHEMAS['webhook.test'].parse({
    id: newId('event', nowMs),
    type: WEBHOOK_TEST_EVENT,
    createdAt: new Date(nowMs).toISOString(),
    workspaceId: webhook.workspaceId,
    data: {
      webhookId: webhook.webhookId,
      message: 'This is a test event. If you can read it, your receiver works.',
    },
  });
}
