import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type EntityType, toItem } from '../../../shared/adapters/dynamodb/keys.js';
import { EVENT_TYPES, type ServiceEvent } from '../../../shared/domain/events.js';
import {
  DELIVERED_EVENT_TYPES,
  deliveredEnvelopeSchema,
  toDeliveredEnvelope,
  WEBHOOK_EVENT_SCHEMAS,
  WebhookPayloadError,
  webhookTestEnvelope,
} from '../../../shared/domain/webhooks/payloads.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { DeliveryMessage } from '../../../shared/ports/queues.js';
import type { MediaImportMessage } from '../../../shared/services/media/import-media.js';
import { makeOutboxStreamHandler } from '../../../shared/triggers/outbox-stream.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';
import { aPost } from '../delivery/support.js';
import { anAccount } from '../support/builders.js';
import { RecordingPostScheduler, RecordingQueue } from '../support/recording-queues.js';

const NOW = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();

/** A main-table stream record, as the outbox reads it. */
function change(entity: EntityType, before: object | undefined, after: object): DynamoDBRecord {
  const image = (value: object) =>
    marshall(toItem(entity, { pk: 'PK', sk: 'SK' }, value), { removeUndefinedValues: true }) as never;
  return {
    eventName: before ? 'MODIFY' : 'INSERT',
    dynamodb: { ...(before && { OldImage: image(before) }), NewImage: image(after) },
  };
}

const pending = aPost({
  status: 'pending_approval',
  approval: { status: 'pending', requestedAt: at(0) },
});

/** State changes that, between them, make every one of the eight events, most with optional fields. */
const CHANGES: DynamoDBRecord[] = [
  change('post', undefined, aPost({ status: 'queued' })),
  change('post', undefined, aPost({ status: 'scheduled', scheduledAt: at(3_600_000) })),
  change(
    'post',
    aPost({ status: 'scheduled', scheduledAt: at(3_600_000) }),
    aPost({ status: 'scheduled', scheduledAt: at(7_200_000), version: 2, updatedAt: at(1000) }),
  ),
  change(
    'post',
    aPost({ status: 'scheduled', scheduledAt: at(0) }),
    aPost({ status: 'queued', scheduledAt: at(0), version: 2 }),
  ),
  change('post', undefined, pending),
  change(
    'post',
    pending,
    aPost({
      status: 'scheduled',
      scheduledAt: at(3_600_000),
      version: 2,
      approval: { status: 'approved', requestedAt: at(0), decidedAt: at(60_000), decidedBy: 'agt_reviewer' },
    }),
  ),
  change(
    'post',
    pending,
    aPost({
      status: 'queued',
      version: 2,
      approval: { status: 'approved', requestedAt: at(0), decidedAt: at(60_000) },
    }),
  ),
  change(
    'post',
    pending,
    aPost({
      status: 'rejected',
      version: 2,
      approval: {
        status: 'rejected',
        requestedAt: at(0),
        decidedAt: at(60_000),
        decidedBy: 'agt_reviewer',
        reason: 'Off brand.',
      },
    }),
  ),
  change(
    'post',
    aPost({ status: 'publishing' }),
    aPost({
      status: 'published',
      version: 2,
      publishedAt: at(5000),
      platformPostId: '1790000000000000000',
      platformPostUrl: 'https://x.com/i/web/status/1790000000000000000',
    }),
  ),
  change(
    'post',
    aPost({ status: 'publishing' }),
    aPost({ status: 'published', version: 2, publishedAt: at(5000) }),
  ),
  change(
    'post',
    aPost({ status: 'publishing' }),
    aPost({
      status: 'failed',
      version: 2,
      error: {
        origin: 'platform',
        code: 'MEDIA_TOO_LARGE',
        message: 'Too big.',
        platformRawCode: '324',
        retryable: false,
      },
    }),
  ),
  change(
    'post',
    aPost({ status: 'publishing' }),
    aPost({
      status: 'failed',
      version: 2,
      error: { origin: 'service', code: 'delivery_uncertain', message: 'Unknown outcome.', retryable: false },
    }),
  ),
  change(
    'post',
    aPost({ status: 'publishing' }),
    aPost({
      status: 'awaiting_creator',
      version: 2,
      warnings: [{ code: 'TEXT_NOT_SENT_TO_INBOX', message: 'The text was not sent.' }],
    }),
  ),
  change(
    'post',
    aPost({
      status: 'published',
      version: 5,
      publishedAt: at(5000),
      platformPostId: '1790000000000000000',
      firstComment: { text: 'More below', status: 'publishing', attempts: 1 },
    }),
    aPost({
      status: 'published',
      version: 6,
      publishedAt: at(5000),
      platformPostId: '1790000000000000000',
      firstComment: {
        text: 'More below',
        status: 'published',
        attempts: 1,
        platformCommentId: '1790000000000000001',
        platformCommentUrl: 'https://x.com/i/web/status/1790000000000000001',
        publishedAt: at(7000),
      },
    }),
  ),
  change(
    'post',
    aPost({
      status: 'published',
      version: 5,
      publishedAt: at(5000),
      platformPostId: '1790000000000000000',
      firstComment: { text: 'More below', status: 'publishing', attempts: 1 },
    }),
    aPost({
      status: 'published',
      version: 6,
      publishedAt: at(5000),
      platformPostId: '1790000000000000000',
      firstComment: {
        text: 'More below',
        status: 'uncertain',
        attempts: 1,
        error: { origin: 'platform', code: 'comment_uncertain', message: 'No answer.', retryable: false },
      },
    }),
  ),
  change(
    'post',
    aPost({ status: 'published', version: 3, publishedAt: at(5000), metrics: { readings: [] } }),
    aPost({
      status: 'published',
      version: 4,
      publishedAt: at(5000),
      metrics: { readings: [{ collectedAt: at(3_605_000), metrics: { likes: 4, impressions: 90 } }] },
    }),
  ),
  change(
    'account',
    anAccount(),
    anAccount({ status: 'disconnected', disconnectedAt: at(0), disconnectReason: 'revoked by the user' }),
  ),
  change('account', anAccount(), anAccount({ status: 'disconnected', disconnectedAt: at(0) })),
];

/** Every event the outbox puts on the events queue for CHANGES: the real derivation, end to end. */
async function outboxEvents(): Promise<ServiceEvent[]> {
  const eventsQueue = new RecordingQueue<ServiceEvent>();
  const outbox = makeOutboxStreamHandler({
    deliveryQueue: new RecordingQueue<DeliveryMessage>(),
    importQueue: new RecordingQueue<MediaImportMessage>(),
    eventsQueue,
    webhookQueue: new RecordingQueue(),
    scheduler: new RecordingPostScheduler(),
    clock: fixedClock(NOW),
    logger: makeMemoryLogger(),
  });
  expect(await outbox({ Records: CHANGES })).toEqual({ batchItemFailures: [] });
  return eventsQueue.messages();
}

const failedEvent = (data: Record<string, unknown>): ServiceEvent => ({
  id: 'evt_01JD0000000000000000000000',
  type: 'post.failed',
  createdAt: at(0),
  tenantId: 'ten_01JD0000000000000000000000',
  workspaceId: 'wks_01JD0000000000000000000000',
  data,
});

describe('webhook payload schemas', () => {
  it('describe every event the outbox emits, every type, with nothing dropped but tenantId', async () => {
    // Act
    const events = await outboxEvents();

    // Assess
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(EVENT_TYPES));
    for (const event of events) {
      const { tenantId: _tenantId, ...expected } = event;
      const delivered = toDeliveredEnvelope(event);
      expect(delivered).toEqual(expected);
      expect(delivered).not.toHaveProperty('tenantId');
      expect(WEBHOOK_EVENT_SCHEMAS[event.type].safeParse(delivered).success).toBe(true);
    }
  });

  it('put the envelope fields in the documented order, so the signed bytes read as documented', async () => {
    const [event] = await outboxEvents();
    if (!event) throw new Error('no event');
    expect(Object.keys(toDeliveredEnvelope(event))).toEqual([
      'id',
      'type',
      'createdAt',
      'workspaceId',
      'data',
    ]);
  });

  it('drop fields they do not name, so nothing internal leaks into a body', () => {
    // Prepare
    const event = failedEvent({
      postId: 'pst_1',
      status: 'failed',
      platform: 'twitter',
      accountId: 'acc_1',
      error: { origin: 'platform', code: 'X', message: 'm', retryable: true, stack: 'at …' },
      tenantId: 'ten_other',
      content: 'the post text',
    });

    // Act
    const delivered = toDeliveredEnvelope(event);

    // Assess
    expect(delivered.data).toEqual({
      postId: 'pst_1',
      status: 'failed',
      platform: 'twitter',
      accountId: 'acc_1',
      error: { origin: 'platform', code: 'X', message: 'm', retryable: true },
    });
  });

  it('refuse an event that breaks its schema, naming the fields but not their values', () => {
    // Prepare: post.failed without its error, and with another status.
    const event = failedEvent({
      postId: 'pst_1',
      status: 'published',
      platform: 'twitter',
      accountId: 'secret-ish',
    });

    // Act
    const act = () => toDeliveredEnvelope({ ...event, workspaceId: 42 as unknown as string });

    // Assess
    expect(act).toThrow(WebhookPayloadError);
    expect(act).toThrow(/workspaceId: invalid_type; data\.status: invalid_value; data\.error: invalid_type/);
    expect(act).not.toThrow(/secret-ish/);
  });

  it('refuse an event id of another shape and a type that is not an event', () => {
    const good = failedEvent({
      postId: 'p',
      status: 'failed',
      platform: 'twitter',
      accountId: 'a',
      error: { origin: 'service', code: 'c', message: 'm', retryable: false },
    });
    expect(() => toDeliveredEnvelope({ ...good, id: 'evt_123' })).toThrow(/id: invalid_format/);
    expect(() => toDeliveredEnvelope({ ...good, type: 'post.deleted' as never })).toThrow(
      /not an event type/,
    );
    expect(() => toDeliveredEnvelope({ ...good, type: 'post.published' })).toThrow(/data\.status/);
  });

  it('have a JSON Schema for every delivered type, named as an OpenAPI component, without tenantId', () => {
    for (const type of DELIVERED_EVENT_TYPES) {
      // Act
      const schema = z.toJSONSchema(WEBHOOK_EVENT_SCHEMAS[type], {
        target: 'draft-2020-12',
        io: 'output',
      }) as {
        $ref: string;
        $defs: Record<string, { properties: Record<string, { const?: string }>; required: string[] }>;
      };

      // Assess: post.failed → #/$defs/PostFailedEvent, webhook.test → WebhookTestEvent.
      const name = schema.$ref.replace('#/$defs/', '');
      expect(name).toMatch(/^(Post|Approval|Account|Webhook)([A-Z][a-z]+)+Event$/);
      const envelope = schema.$defs[name];
      expect(Object.keys(envelope?.properties ?? {})).toEqual([
        'id',
        'type',
        'createdAt',
        'workspaceId',
        'data',
      ]);
      expect(envelope?.properties.type?.const).toBe(type);
      expect(envelope?.required).toEqual(['id', 'type', 'createdAt', 'workspaceId', 'data']);
      expect(JSON.stringify(schema)).not.toContain('tenantId');
    }
  });
});

describe('the webhook.test event', () => {
  it('is a valid delivered body for that webhook, with a fresh event id each time', () => {
    // Act
    const first = webhookTestEnvelope({ webhookId: 'whk_1', workspaceId: 'wks_1' }, NOW);
    const second = webhookTestEnvelope({ webhookId: 'whk_1', workspaceId: 'wks_1' }, NOW);

    // Assess
    expect(deliveredEnvelopeSchema.parse(first)).toEqual(first);
    expect(first).toMatchObject({
      type: 'webhook.test',
      createdAt: at(0),
      workspaceId: 'wks_1',
      data: { webhookId: 'whk_1', message: expect.any(String) },
    });
    expect(first.id).toMatch(/^evt_/);
    expect(second.id).not.toBe(first.id);
  });

  it('is not one of the events a webhook subscribes to', () => {
    expect(EVENT_TYPES as readonly string[]).not.toContain('webhook.test');
  });
});

describe('the delivered-body union', () => {
  it('has one member for each delivered type', () => {
    expect(deliveredEnvelopeSchema.options.map((option) => option.shape.type.value)).toEqual([
      ...DELIVERED_EVENT_TYPES,
    ]);
  });

  it('tells the types apart by `type`', async () => {
    const events = await outboxEvents();
    const published = events.find((event) => event.type === 'post.published');
    if (!published) throw new Error('no post.published');
    const body = JSON.parse(JSON.stringify(toDeliveredEnvelope(published))) as unknown;
    expect(deliveredEnvelopeSchema.parse(body).type).toBe('post.published');
    expect(deliveredEnvelopeSchema.safeParse({ ...(body as object), type: 'post.queued' }).success).toBe(
      false,
    );
  });
});
