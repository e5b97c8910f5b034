import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { type EntityType, toItem } from '../../../shared/adapters/dynamodb/keys.js';
import { SCHEDULE_LEAD_MS } from '../../../shared/domain/delivery-effects.js';
import type { ServiceEvent } from '../../../shared/domain/events.js';
import type { Media } from '../../../shared/domain/media.js';
import type { Post } from '../../../shared/domain/posts.js';
import type { Account } from '../../../shared/domain/tenancy.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { DeliveryMessage } from '../../../shared/ports/queues.js';
import type { WebhookDelivery } from '../../../shared/ports/webhook-store.js';
import { OUTBOX_ENTITIES } from '../../../shared/services/delivery/outbox-entities.js';
import type { MediaImportMessage } from '../../../shared/services/media/import-media.js';
import type { WebhookDispatchMessage } from '../../../shared/services/webhooks/dispatch-message.js';
import { makeOutboxStreamHandler, outboxAcceptsNewImage } from '../../../shared/triggers/outbox-stream.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';
import { aMedia, anAccount } from '../support/builders.js';
import { RecordingPostScheduler, RecordingQueue } from '../support/recording-queues.js';
import { aPost } from './support.js';

const NOW = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();

/** A stream record as DynamoDB writes it: the item images, marshalled. */
function change(
  entity: EntityType,
  before: object | undefined,
  after: object | undefined,
  sequenceNumber = '1',
): DynamoDBRecord {
  const image = (value: object | undefined) =>
    value &&
    (marshall(toItem(entity, { pk: 'PK', sk: 'SK' }, value), { removeUndefinedValues: true }) as never);
  return {
    eventName: before ? (after ? 'MODIFY' : 'REMOVE') : 'INSERT',
    dynamodb: {
      SequenceNumber: sequenceNumber,
      ...(before && { OldImage: image(before) }),
      ...(after && { NewImage: image(after) }),
    },
  };
}

const stream = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

function setup() {
  const deliveryQueue = new RecordingQueue<DeliveryMessage>();
  const importQueue = new RecordingQueue<MediaImportMessage>();
  const eventsQueue = new RecordingQueue<ServiceEvent>();
  const webhookQueue = new RecordingQueue<WebhookDispatchMessage>();
  const scheduler = new RecordingPostScheduler();
  const logger = makeMemoryLogger();
  const outbox = makeOutboxStreamHandler({
    deliveryQueue,
    importQueue,
    eventsQueue,
    webhookQueue,
    scheduler,
    clock: fixedClock(NOW),
    logger,
  });
  return { outbox, deliveryQueue, importQueue, eventsQueue, webhookQueue, scheduler, logger };
}

/** The message of a post without stored media: the worker reads the post and its account at once. */
const messageOf = (post: Post): DeliveryMessage => ({
  tenantId: post.tenantId,
  workspaceId: post.workspaceId,
  postId: post.postId,
  accountId: post.accountId,
  mediaIds: [],
});

describe('the outbox', () => {
  it('names the post’s account and stored media in its message, each media once', async () => {
    const { outbox, deliveryQueue } = setup();
    const post = aPost({
      status: 'queued',
      updatedAt: at(0),
      postType: 'thread',
      media: [{ id: 'med_01JD0000000000000000000001' }, { url: 'https://example.com/a.png' }],
      content: [
        { text: 'one' },
        {
          text: 'two',
          media: [{ id: 'med_01JD0000000000000000000002' }, { id: 'med_01JD0000000000000000000001' }],
        },
      ],
    });

    await outbox(stream(change('post', undefined, post)));

    expect(deliveryQueue.sent[0]?.message).toEqual({
      ...messageOf(post),
      mediaIds: ['med_01JD0000000000000000000001', 'med_01JD0000000000000000000002'],
    });
  });

  it('carries the trace of the request that wrote the post: in the message, and as the trace it continues', async () => {
    // Prepare
    const { outbox, deliveryQueue, scheduler } = setup();
    const trace = 'Root=1-6748a1b2-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=1';
    const now = aPost({ status: 'queued', updatedAt: at(0), trace });
    const later = aPost({
      postId: 'pst_01JD0000000000000000000LTR',
      status: 'scheduled',
      scheduledAt: at(3_600_000),
      updatedAt: at(0),
      trace,
    });
    const untraced = aPost({ postId: 'pst_01JD0000000000000000000UNT', status: 'queued', updatedAt: at(0) });

    // Act
    await outbox(stream(change('post', undefined, now), change('post', undefined, later, '2')));
    await outbox(stream(change('post', undefined, untraced, '3')));

    // Assess
    expect(deliveryQueue.sent[0]).toEqual({ message: { ...messageOf(now), trace }, delaySeconds: 0, trace });
    // Scheduler sets no AWSTraceHeader: the schedule's message carries the trace in its body.
    expect(scheduler.schedules.get(later.postId)?.message.trace).toBe(trace);
    expect(deliveryQueue.sent[1]).toEqual({ message: messageOf(untraced), delaySeconds: 0 });
  });

  it('a new queued post: a delivery message now, and post.queued', async () => {
    const { outbox, deliveryQueue, eventsQueue } = setup();
    const post = aPost({ status: 'queued', updatedAt: at(0) });

    expect(await outbox(stream(change('post', undefined, post)))).toEqual({ batchItemFailures: [] });

    expect(deliveryQueue.sent).toEqual([{ message: messageOf(post), delaySeconds: 0 }]);
    expect(eventsQueue.messages().map((event) => event.type)).toEqual(['post.queued']);
  });

  it('a post scheduled 10 minutes ahead rides a delayed message; one a day ahead gets a schedule', async () => {
    const { outbox, deliveryQueue, scheduler } = setup();
    const soon = aPost({ postId: 'pst_soon', status: 'scheduled', scheduledAt: at(600_000) });
    const later = aPost({ postId: 'pst_later', status: 'scheduled', scheduledAt: at(86_400_000) });

    await outbox(stream(change('post', undefined, soon), change('post', undefined, later, '2')));

    // Three seconds short of its time: the worker aligns it (delivery-effects.test.ts).
    expect(deliveryQueue.sent).toEqual([{ message: messageOf(soon), delaySeconds: 597 }]);
    expect(scheduler.calls).toEqual([
      {
        op: 'upsert',
        postId: 'pst_later',
        fireAt: at(86_400_000 - SCHEDULE_LEAD_MS),
        message: messageOf(later),
      },
    ]);
  });

  it('a cancelled scheduled post loses its schedule', async () => {
    const { outbox, scheduler } = setup();
    const before = aPost({ status: 'scheduled', scheduledAt: at(86_400_000) });
    await outbox(stream(change('post', before, { ...before, status: 'cancelled', version: 2 })));
    expect(scheduler.calls).toEqual([{ op: 'remove', postId: before.postId }]);
  });

  it('a lease renewal (publishing → publishing) has no effect and no event', async () => {
    const { outbox, deliveryQueue, eventsQueue, scheduler } = setup();
    const held = aPost({ status: 'publishing', version: 2, delivery: { leaseUntil: at(20_000) } });
    await outbox(stream(change('post', held, { ...held, version: 3, delivery: { leaseUntil: at(25_000) } })));
    expect([deliveryQueue.sent, eventsQueue.sent, scheduler.calls]).toEqual([[], [], []]);
  });

  it('a retry (publishing → queued) gets a message delayed to its next attempt, and no event', async () => {
    const { outbox, deliveryQueue, eventsQueue } = setup();
    const held = aPost({ status: 'publishing', version: 2 });
    const retry = { ...held, status: 'queued' as const, version: 3, delivery: { nextAttemptAt: at(8000) } };
    await outbox(stream(change('post', held, retry)));
    expect(deliveryQueue.sent).toEqual([{ message: messageOf(held), delaySeconds: 8 }]);
    expect(eventsQueue.sent).toEqual([]);
  });

  it('a media import by URL goes to the import queue, once', async () => {
    const { outbox, importQueue } = setup();
    const media: Media = aMedia({
      source: 'url',
      status: 'pending',
      sourceUrl: 'https://cdn.example.com/a.png',
    });
    await outbox(
      stream(
        change('media', undefined, media),
        change('media', media, { ...media, status: 'uploaded' }, '2'),
      ),
    );
    expect(importQueue.messages()).toEqual([
      { tenantId: media.tenantId, workspaceId: media.workspaceId, mediaId: media.mediaId },
    ]);
  });

  it('an account losing its authorisation: account.disconnected', async () => {
    const { outbox, eventsQueue } = setup();
    const account: Account = anAccount();
    const disconnected: Account = {
      ...account,
      status: 'disconnected',
      disconnectedAt: at(0),
      disconnectReason: 'revoked by the user',
    };
    await outbox(stream(change('account', account, disconnected)));
    expect(eventsQueue.messages()).toEqual([
      expect.objectContaining({
        type: 'account.disconnected',
        data: { accountId: account.accountId, platform: 'twitter', reason: 'revoked by the user' },
      }),
    ]);
  });

  it('a record that fails stops the batch there, is reported for a retry from it, and is logged', async () => {
    // Prepare: the delivery queue is down for the second record.
    const { outbox, deliveryQueue, logger } = setup();
    const first = aPost({ postId: 'pst_1', status: 'queued' });
    const second = aPost({ postId: 'pst_2', status: 'queued' });
    const third = aPost({ postId: 'pst_3', status: 'queued' });
    const send = deliveryQueue.send.bind(deliveryQueue);
    deliveryQueue.send = async (message, options) => {
      if (message.postId === 'pst_2') throw new Error('SQS is unavailable');
      return send(message, options);
    };

    // Act
    const response = await outbox(
      stream(
        change('post', undefined, first, '100'),
        change('post', undefined, second, '200'),
        change('post', undefined, third, '300'),
      ),
      { awsRequestId: 'req-1', functionName: 'outbox' },
    );

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
    expect(deliveryQueue.messages().map((message) => message.postId)).toEqual(['pst_1']);
    expect(logger.entries).toEqual([
      {
        level: 'error',
        message: 'outbox record failed; it will be retried',
        fields: expect.objectContaining({
          function: 'outbox',
          lambdaRequestId: 'req-1',
          coldStart: true,
          sequenceNumber: '200',
          error: expect.objectContaining({ message: 'SQS is unavailable' }),
        }),
      },
    ]);
  });

  it('ignores records of other entities and removals', async () => {
    const { outbox, deliveryQueue, eventsQueue } = setup();
    const post = aPost({ status: 'queued' });
    await outbox(
      stream(change('tenant', undefined, { tenantId: 't' }), change('post', post, undefined, '2')),
    );
    expect([deliveryQueue.sent, eventsQueue.sent]).toEqual([[], []]);
  });

  it("the stream's filter lets through exactly the entities the outbox acts on", () => {
    for (const entity of OUTBOX_ENTITIES) expect(outboxAcceptsNewImage({ entity: { S: entity } })).toBe(true);
    for (const entity of ['event', 'sandboxPublication', 'apiKey', 'workspace', 'tenant'])
      expect(outboxAcceptsNewImage({ entity: { S: entity } })).toBe(false);
    // A removal has no new image.
    expect(outboxAcceptsNewImage(undefined)).toBe(false);
    expect(outboxAcceptsNewImage({ pk: { S: 'x' } })).toBe(false);
  });

  describe('webhook deliveries', () => {
    const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
      deliveryId: 'whd_01JD0000000000000000000000',
      tenantId: 'ten_01JD0000000000000000000000',
      workspaceId: 'wks_01JD0000000000000000000000',
      webhookId: 'whk_01JD0000000000000000000000',
      eventId: 'evt_01JD0000000000000000000000',
      eventType: 'post.queued',
      event: {
        id: 'evt_01JD0000000000000000000000',
        type: 'post.queued',
        createdAt: at(0),
        workspaceId: 'wks_01JD0000000000000000000000',
        data: {},
      },
      status: 'pending',
      attempts: [],
      createdAt: at(0),
      ...overrides,
    });
    const failedAttempt = { at: at(1000), responseStatus: 500, durationMs: 12, error: 'HTTP 500' };
    const dispatchOf = (d: WebhookDelivery): WebhookDispatchMessage => ({
      tenantId: d.tenantId,
      workspaceId: d.workspaceId,
      webhookId: d.webhookId,
      deliveryId: d.deliveryId,
      attempts: d.attempts.length,
    });

    it('a delivery inserted with a dispatch request (a test event): one dispatch message, no delay', async () => {
      // Prepare
      const { outbox, webhookQueue } = setup();
      const requested = delivery({ dispatchRequestedAt: at(0), nextAttemptAt: at(0) });

      // Act
      const response = await outbox(stream(change('webhookDelivery', undefined, requested)));

      // Assess
      expect(response).toEqual({ batchItemFailures: [] });
      expect(webhookQueue.sent).toEqual([{ message: dispatchOf(requested) }]);
    });

    it('a changed dispatch request (a retry through the API): a message expecting the attempts made so far', async () => {
      // Prepare
      const { outbox, webhookQueue } = setup();
      const before = delivery({ status: 'failed', attempts: [failedAttempt] });
      const after = delivery({
        attempts: [failedAttempt],
        dispatchRequestedAt: at(60_000),
        nextAttemptAt: at(60_000),
      });

      // Act
      await outbox(stream(change('webhookDelivery', before, after)));

      // Assess
      expect(webhookQueue.messages()).toEqual([{ ...dispatchOf(after), attempts: 1 }]);
    });

    it('deliveries the fan-out creates, attempts the dispatcher records and TTL removals send nothing', async () => {
      // Prepare
      const { outbox, webhookQueue, deliveryQueue, eventsQueue } = setup();
      const requested = delivery({ dispatchRequestedAt: at(0) });
      const attempted = delivery({
        dispatchRequestedAt: at(0),
        attempts: [failedAttempt],
        nextAttemptAt: at(31_000),
      });
      const finished = delivery({
        status: 'succeeded',
        dispatchRequestedAt: at(0),
        attempts: [failedAttempt],
      });

      // Act
      await outbox(
        stream(
          change('webhookDelivery', undefined, delivery(), '1'),
          change('webhookDelivery', delivery(), delivery({ attempts: [failedAttempt] }), '2'),
          change('webhookDelivery', requested, attempted, '3'),
          change('webhookDelivery', attempted, finished, '4'),
          change('webhookDelivery', finished, undefined, '5'),
        ),
      );

      // Assess
      expect([webhookQueue.sent, deliveryQueue.sent, eventsQueue.sent]).toEqual([[], [], []]);
    });
  });
});
