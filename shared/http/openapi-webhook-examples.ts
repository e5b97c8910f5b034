import { type EventType, type ServiceEvent, stableEventId } from '../domain/events.js';
import {
  type DeliveredEnvelope,
  type DeliveredEventType,
  toDeliveredEnvelope,
  WEBHOOK_TEST_EVENT,
  webhookTestEnvelope,
} from '../domain/webhooks/payloads.js';
import { NETWORK_DEFINITIONS } from '../networks/definitions.js';
import { DISCONNECT_REASONS } from '../services/accounts/account-credentials.js';

/**
 * One delivered body per event type, for the `webhooks` section. Each is made the way the
 * dispatcher makes a body (toDeliveredEnvelope: the event without tenantId, parsed by the event's
 * schema), so an example that stopped matching its schema would stop the document from building.
 * Ids and times are fixed so the document is the same on every build.
 */
const TENANT = 'ten_01JNQ3ZB7KXW4M9D2R5T8V0HCE';
const WORKSPACE = 'wks_01JNQ40A2B3C4D5E6F7G8H9JKM';
const ACCOUNT = 'acc_01JNQ41N7P8Q9R0S1T2V3W4XYZ';
const POST = 'pst_01JNQ4Y7M2V8K3D5R6T9W0XBCA';
const WEBHOOK = 'whk_01JNQ42C5D6E7F8G9H0J1K2MNP';
const CREATED = '2026-03-02T09:30:00.000Z';
const SCHEDULED = '2026-03-02T12:00:00.000Z';
const PUBLISHED = '2026-03-02T12:00:04.000Z';

/** The network of the examples: the first whose definition gives a published post's ids. */
function exampleNetwork() {
  for (const definition of NETWORK_DEFINITIONS) {
    if ('examplePublished' in definition)
      return { platform: definition.platform, ...definition.examplePublished };
  }
  throw new Error('No network definition gives an examplePublished for the webhook examples.');
}

const { platform, platformPostId, platformPostUrl } = exampleNetwork();
const post = { postId: POST, platform, accountId: ACCOUNT };

/** A network that hands posts over to the creator's inbox: the one whose definition gives that warning. */
function inboxNetwork(): string {
  for (const definition of NETWORK_DEFINITIONS) {
    const examples: Readonly<Record<string, string>> | undefined =
      'warningExamples' in definition ? definition.warningExamples : undefined;
    if (examples?.[TEXT_NOT_SENT] !== undefined) return definition.platform;
  }
  throw new Error(`No network definition gives the ${TEXT_NOT_SENT} warning for the webhook examples.`);
}
const TEXT_NOT_SENT = 'TEXT_NOT_SENT_TO_INBOX';

/** The `data` of each event, as the service fills it (shared/domain/events.ts, outbox.ts). */
const DATA: Readonly<Record<EventType, Record<string, unknown>>> = {
  'post.queued': { ...post, status: 'queued' },
  'post.scheduled': { ...post, status: 'scheduled', scheduledAt: SCHEDULED },
  'post.published': {
    ...post,
    status: 'published',
    scheduledAt: SCHEDULED,
    platformPostId,
    platformPostUrl,
    publishedAt: PUBLISHED,
  },
  'post.failed': {
    ...post,
    status: 'failed',
    error: {
      origin: 'platform',
      code: 'MEDIA_TOO_LARGE',
      message: 'The network refused the video: it is larger than the account may upload.',
      platformRawCode: '413',
      retryable: false,
    },
  },
  'post.awaiting_creator': {
    postId: POST,
    platform: inboxNetwork(),
    accountId: ACCOUNT,
    status: 'awaiting_creator',
    warnings: [
      {
        code: TEXT_NOT_SENT,
        message:
          "The network takes no caption with a video sent to the creator's inbox: the post's text was not sent; the creator writes it in the network's app.",
      },
    ],
  },
  'approval.requested': { postId: POST },
  'approval.decided': {
    postId: POST,
    decision: 'rejected',
    reviewer: 'agt_01JNQ43D6E7F8G9H0J1K2M3NPQ',
    reason: 'Wrong launch date.',
  },
  'account.disconnected': {
    accountId: ACCOUNT,
    platform,
    reason: DISCONNECT_REASONS.refreshRefused,
  },
  'post.metrics': {
    ...post,
    collectedAt: '2026-03-02T13:00:07.000Z',
    metrics: { impressions: 1520, likes: 48, comments: 6, shares: 9 },
  },
  'post.first_comment_published': {
    ...post,
    platformPostId,
    firstComment: {
      status: 'published',
      attempts: 1,
      platformCommentId: `${platformPostId}-c1`,
      publishedAt: '2026-03-02T12:00:06.000Z',
    },
  },
  'post.first_comment_failed': {
    ...post,
    platformPostId,
    firstComment: {
      status: 'failed',
      attempts: 1,
      error: {
        origin: 'platform',
        code: 'PERMISSION_DENIED',
        message: 'The network refused the comment: the account may not comment on this post.',
        platformRawCode: '403',
        retryable: false,
      },
    },
  },
};

function example(type: EventType): DeliveredEnvelope {
  const event: ServiceEvent = {
    id: stableEventId(Date.parse(CREATED), POST, type),
    type,
    createdAt: CREATED,
    tenantId: TENANT,
    workspaceId: WORKSPACE,
    data: DATA[type],
  };
  return toDeliveredEnvelope(event);
}

/** The example body of each delivered event type. */
export function webhookExamples(): Record<DeliveredEventType, DeliveredEnvelope> {
  return {
    'post.queued': example('post.queued'),
    'post.scheduled': example('post.scheduled'),
    'post.published': example('post.published'),
    'post.failed': example('post.failed'),
    'post.awaiting_creator': example('post.awaiting_creator'),
    'approval.requested': example('approval.requested'),
    'approval.decided': example('approval.decided'),
    'account.disconnected': example('account.disconnected'),
    'post.metrics': example('post.metrics'),
    'post.first_comment_published': example('post.first_comment_published'),
    'post.first_comment_failed': example('post.first_comment_failed'),
    // The test body is made per call with a new id; a fixed one keeps the document reproducible.
    [WEBHOOK_TEST_EVENT]: {
      ...webhookTestEnvelope({ webhookId: WEBHOOK, workspaceId: WORKSPACE }, Date.parse(CREATED)),
      id: stableEventId(Date.parse(CREATED), WEBHOOK, WEBHOOK_TEST_EVENT),
    },
  };
}
