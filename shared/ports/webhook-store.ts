import { derivedId, ID_PREFIXES, isIdOf } from '../domain/ids.js';
import type { Page, PageRequest } from './page.js';

/** Deliveries and feed events are kept this long (docs/api-decisions.md#webhooks: 30 days). */
export const WEBHOOK_RETENTION_DAYS = 30;

/** The outcome of a webhook's latest finished delivery. */
export type DeliveryOutcome = 'succeeded' | 'failed';

/** A webhook as reads that feed API responses see it: never its secret. */
export interface Webhook {
  webhookId: string;
  tenantId: string;
  workspaceId: string;
  url: string;
  /** Event names it is subscribed to. */
  events: string[];
  description?: string;
  createdAt: string;
  lastDeliveryAt?: string;
  lastDeliveryStatus?: DeliveryOutcome;
  /** Failed deliveries since the last one that succeeded. */
  consecutiveFailures: number;
}

/** A webhook as stored: with its signing secret, encrypted (SecretCipher), for the dispatcher only. */
export interface WebhookRecord extends Webhook {
  secretCiphertext: string;
}

/** A create that would give the workspace more webhooks than it may have; nothing was written. */
export class WebhookLimitReached extends Error {
  override readonly name = 'WebhookLimitReached';
  constructor(readonly limit: number) {
    super(`The workspace already has ${limit} webhooks.`);
  }
}

/** The envelope a delivery sends (docs/api-decisions.md#webhooks), kept so a retry resends it. */
export interface DeliveredEvent {
  id: string;
  type: string;
  createdAt: string;
  workspaceId: string;
  data: Record<string, unknown>;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryAttempt {
  at: string;
  /** Absent when no response came (time-out, connection error). */
  responseStatus?: number;
  durationMs: number;
  error?: string;
}

/** One event to one webhook, with every attempt: docs/api-decisions.md#webhooks, and what routes it. */
export interface WebhookDelivery {
  /** `whd_…`, derived from the webhook and the event: see webhookDeliveryId. */
  deliveryId: string;
  tenantId: string;
  workspaceId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  event: DeliveredEvent;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  lastAttemptAt?: string;
  nextAttemptAt?: string;
  /** Of the latest attempt. */
  responseStatus?: number;
  responseTimeMs?: number;
  error?: string;
  /**
   * When an API request (a retry, a test event) last asked for an attempt now (ISO 8601). The
   * request only writes this; the transactional outbox sends the dispatch message when it sees a
   * delivery inserted with it, or a change of it (one write on the request path:
   * docs/architecture.md#data-flow).
   */
  dispatchRequestedAt?: string;
  createdAt: string;
}

export interface DeliveryKey {
  tenantId: string;
  workspaceId: string;
  webhookId: string;
  deliveryId: string;
}

export interface NewDelivery {
  tenantId: string;
  workspaceId: string;
  webhookId: string;
  event: DeliveredEvent;
  createdAt: string;
  /** When the first attempt is due; absent when it is made at once. */
  nextAttemptAt?: string;
  /** Set by a request (the test event): the outbox, not the caller, sends its dispatch message. */
  dispatchRequestedAt?: string;
}

export interface DeliveryListQuery extends PageRequest {
  status?: DeliveryStatus;
}

/** An event as the feed keeps it: the delivered envelope, plus the tenant that routes it. */
export interface FeedEvent extends DeliveredEvent {
  tenantId: string;
}

export interface FeedQuery {
  /** An event id (exclusive) or a nextCursor of a previous page with the same `types`. */
  after?: string;
  /** Only these event types; absent: all. */
  types?: string[];
  limit: number;
  /**
   * Leave out events created at or after this time (ISO 8601), so a reader polling at the head
   * does not step past an event that is still on its way into the feed.
   */
  createdBefore?: string;
}

/**
 * The id of the delivery of `eventId` to `webhookId`: the same pair always gives the same id, so
 * a redelivered event finds its first delivery instead of making a second. Its time is the event's,
 * so a webhook's deliveries sort by their events' times. RangeError when `eventId` is not `evt_…`.
 */
export function webhookDeliveryId(webhookId: string, eventId: string): string {
  if (!isIdOf('event', eventId)) throw new RangeError('A delivery is made for an evt_… event id.');
  const timePart = eventId.slice(ID_PREFIXES.event.length + 1, ID_PREFIXES.event.length + 11);
  return derivedId('webhookDelivery', timePart, webhookId, eventId);
}

/** The record `createDelivery` stores for a new delivery: pending, no attempt yet. */
export function newDelivery(input: NewDelivery): WebhookDelivery {
  return {
    deliveryId: webhookDeliveryId(input.webhookId, input.event.id),
    tenantId: input.tenantId,
    workspaceId: input.workspaceId,
    webhookId: input.webhookId,
    eventId: input.event.id,
    eventType: input.event.type,
    event: input.event,
    status: 'pending',
    attempts: [],
    ...(input.nextAttemptAt && { nextAttemptAt: input.nextAttemptAt }),
    ...(input.dispatchRequestedAt && { dispatchRequestedAt: input.dispatchRequestedAt }),
    createdAt: input.createdAt,
  };
}

/** A workspace's webhooks. Every read is scoped to a tenant and workspace. */
export interface WebhookRegistry {
  /**
   * Stores a new webhook, unless the workspace already has `limit` (WebhookLimitReached): the
   * count and the webhook are written in one transaction, so concurrent creates never pass it.
   */
  createWebhook(webhook: WebhookRecord, limit: number): Promise<void>;
  getWebhook(tenantId: string, workspaceId: string, webhookId: string): Promise<Webhook | undefined>;
  /** With its encrypted secret: only for signing a delivery. */
  getWebhookForDelivery(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
  ): Promise<WebhookRecord | undefined>;
  /** Oldest first (ids are time-ordered). */
  listWebhooks(tenantId: string, workspaceId: string, page: PageRequest): Promise<Page<Webhook>>;
  /**
   * Every webhook of the workspace, read consistently (a webhook created a moment ago receives the
   * next event), whatever it subscribes to: the fan-out reads a workspace's webhooks once per batch
   * of events and keeps, for each event, those subscribed to its type.
   */
  listFanOutWebhooks(tenantId: string, workspaceId: string): Promise<Webhook[]>;
  /** Removes it at once; false when there was no such webhook. */
  deleteWebhook(tenantId: string, workspaceId: string, webhookId: string): Promise<boolean>;
  /**
   * Notes a finished delivery on its webhook (one UpdateItem): success resets consecutiveFailures,
   * failure adds one. False, and nothing written, when the webhook is gone or a later outcome is
   * already recorded.
   */
  recordDeliveryOutcome(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
    outcome: { at: string; status: DeliveryOutcome },
  ): Promise<boolean>;
}

/** Deliveries of events to webhooks, kept WEBHOOK_RETENTION_DAYS after their latest change. */
export interface DeliveryLog {
  /**
   * The delivery of this event to this webhook: made `pending` with no attempts when new
   * (`created: true`); the one already made otherwise, unchanged.
   */
  createDelivery(input: NewDelivery): Promise<{ delivery: WebhookDelivery; created: boolean }>;
  getDelivery(key: DeliveryKey): Promise<WebhookDelivery | undefined>;
  /**
   * Appends an attempt and sets the status and next attempt time (absent: none), if the delivery
   * still has `expectedAttempts` attempts; otherwise (another worker recorded one, or there is no
   * such delivery) writes nothing and answers undefined.
   */
  recordAttempt(
    key: DeliveryKey,
    change: { attempt: DeliveryAttempt; status: DeliveryStatus; nextAttemptAt?: string },
    expectedAttempts: number,
  ): Promise<WebhookDelivery | undefined>;
  /**
   * Asks for an attempt now (a retry through the API), whatever the delivery's status: it becomes
   * `pending` with nextAttemptAt and dispatchRequestedAt set to `at`, and its retention starts
   * again; attempts so far are kept. The outbox sees the new dispatchRequestedAt and sends the
   * dispatch message. A message scheduled before the request still arrives later: the delivery's
   * attempt count or nextAttemptAt then differ from what that message expected (the dispatcher's
   * check). Undefined, and nothing written, when there is no such delivery.
   */
  requestDispatch(key: DeliveryKey, at: string): Promise<WebhookDelivery | undefined>;
  /** Newest first; filtered by status from an index, never by a scan. */
  listDeliveries(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
    query: DeliveryListQuery,
  ): Promise<Page<WebhookDelivery>>;
}

/** The workspace's events in id order, for callers that pull them; kept WEBHOOK_RETENTION_DAYS. */
export interface EventFeed {
  /**
   * Adds the events, in as few round trips as the store allows. An event's id is derived from the
   * change it describes (stableEventId), so a redelivered event comes with the same content: it is
   * written again over itself and the feed keeps one copy.
   */
  appendEvents(events: readonly FeedEvent[]): Promise<void>;
  /** Oldest first, from `after`; nextCursor only when more events are there already. */
  readEvents(tenantId: string, workspaceId: string, query: FeedQuery): Promise<Page<FeedEvent>>;
}

export interface WebhookStore extends WebhookRegistry, DeliveryLog, EventFeed {}
