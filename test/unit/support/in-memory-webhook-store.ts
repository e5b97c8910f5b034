import { ConflictError } from '../../../shared/domain/errors.js';
import { isIdOf } from '../../../shared/domain/ids.js';
import type { Clock } from '../../../shared/ports/clock.js';
import type { Page, PageRequest } from '../../../shared/ports/page.js';
import {
  type DeliveryKey,
  type DeliveryListQuery,
  type FeedEvent,
  type FeedQuery,
  newDelivery,
  WEBHOOK_RETENTION_DAYS,
  type Webhook,
  type WebhookDelivery,
  WebhookLimitReached,
  type WebhookRecord,
  type WebhookStore,
  webhookDeliveryId,
} from '../../../shared/ports/webhook-store.js';
import { decodeListCursor, encodeListCursor } from './list-cursor.js';

const RETENTION_MS = WEBHOOK_RETENTION_DAYS * 24 * 60 * 60 * 1000;
/** As the DynamoDB adapter cuts an attempt's error. */
const MAX_ERROR_LENGTH = 500;

/** Byte order, as DynamoDB compares string sort keys. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The time part of a ULID-shaped id (`evt_…`, `whd_…`), in ms. */
function idTime(id: string): number {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const time = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  return [...time].reduce((ms, char) => ms * 32 + alphabet.indexOf(char), 0);
}

/** One page of `sorted` from after `start`, and a cursor while more follow. */
function pageOf<T>(sorted: T[], idOf: (item: T) => string, limit: number, scope: string): Page<T> {
  const items = sorted.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map((item) => structuredClone(item)),
    ...(last && sorted.length > items.length && { nextCursor: encodeListCursor(scope, idOf(last)) }),
  };
}

function publicView(record: WebhookRecord): Webhook {
  const { secretCiphertext: _secret, ...view } = structuredClone(record);
  return view;
}

const workspaceKey = (tenantId: string, workspaceId: string) => `${tenantId}/${workspaceId}`;
const webhookKey = (tenantId: string, workspaceId: string, webhookId: string) =>
  `${tenantId}/${workspaceId}/${webhookId}`;
const deliveryKey = (key: DeliveryKey) =>
  `${key.tenantId}/${key.workspaceId}/${key.webhookId}/${key.deliveryId}`;

/**
 * A Map-backed WebhookStore for unit tests, honouring the DynamoDB adapter's contract:
 * - `createWebhook` refuses past the limit (WebhookLimitReached) or a taken id (ConflictError), and
 *   `deleteWebhook` gives the place back; reads for responses never carry the ciphertext;
 * - `recordDeliveryOutcome` writes nothing for a deleted webhook or an older outcome;
 * - `createDelivery` makes one delivery per (webhook, event) and finds it again after; `recordAttempt`
 *   writes only at the expected attempt count; `requestDispatch` makes any delivery pending now;
 * - lists are newest first (deliveries) or oldest first (webhooks, the feed), with cursors bound to
 *   their query (400 naming `cursor` otherwise);
 * - the feed shows 30 days by the clock, before `createdBefore`, filters types within the page's
 *   limit (a page may hold fewer), and starts an expired position at the window;
 * - every read and write copies.
 */
export class InMemoryWebhookStore implements WebhookStore {
  private readonly webhooks = new Map<string, WebhookRecord>();
  private readonly counts = new Map<string, number>();
  private readonly deliveries = new Map<string, WebhookDelivery>();
  private readonly events = new Map<string, FeedEvent>();

  constructor(private readonly clock: Clock) {}

  /** Every stored webhook record, as written (with its ciphertext), for assertions. */
  allWebhookRecords(): WebhookRecord[] {
    return [...this.webhooks.values()].map((record) => structuredClone(record));
  }

  /** Every delivery, for assertions. */
  allDeliveries(): WebhookDelivery[] {
    return [...this.deliveries.values()].map((delivery) => structuredClone(delivery));
  }

  async createWebhook(webhook: WebhookRecord, limit: number): Promise<void> {
    const space = workspaceKey(webhook.tenantId, webhook.workspaceId);
    const count = this.counts.get(space) ?? 0;
    if (count >= limit) throw new WebhookLimitReached(limit);
    const key = webhookKey(webhook.tenantId, webhook.workspaceId, webhook.webhookId);
    if (this.webhooks.has(key)) throw new ConflictError('A webhook with this id already exists.');
    this.webhooks.set(key, structuredClone(webhook));
    this.counts.set(space, count + 1);
  }

  async getWebhook(tenantId: string, workspaceId: string, webhookId: string): Promise<Webhook | undefined> {
    const record = this.webhooks.get(webhookKey(tenantId, workspaceId, webhookId));
    return record && publicView(record);
  }

  async getWebhookForDelivery(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
  ): Promise<WebhookRecord | undefined> {
    const record = this.webhooks.get(webhookKey(tenantId, workspaceId, webhookId));
    return record && structuredClone(record);
  }

  async listWebhooks(tenantId: string, workspaceId: string, page: PageRequest): Promise<Page<Webhook>> {
    const scope = `webhooks/${workspaceKey(tenantId, workspaceId)}`;
    const after = page.cursor ? decodeListCursor(page.cursor, scope) : undefined;
    const oldestFirst = [...this.webhooks.values()]
      .filter((record) => record.tenantId === tenantId && record.workspaceId === workspaceId)
      .filter((record) => after === undefined || compare(record.webhookId, after) > 0)
      .sort((a, b) => compare(a.webhookId, b.webhookId))
      .map(publicView);
    return pageOf(oldestFirst, (webhook) => webhook.webhookId, page.limit, scope);
  }

  /** Counted: the fan-out reads a workspace's webhooks once per batch. */
  fanOutReads = 0;

  async listFanOutWebhooks(tenantId: string, workspaceId: string): Promise<Webhook[]> {
    this.fanOutReads += 1;
    return [...this.webhooks.values()]
      .filter((record) => record.tenantId === tenantId && record.workspaceId === workspaceId)
      .map(publicView);
  }

  async deleteWebhook(tenantId: string, workspaceId: string, webhookId: string): Promise<boolean> {
    if (!this.webhooks.delete(webhookKey(tenantId, workspaceId, webhookId))) return false;
    const space = workspaceKey(tenantId, workspaceId);
    this.counts.set(space, (this.counts.get(space) ?? 1) - 1);
    return true;
  }

  async recordDeliveryOutcome(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
    outcome: { at: string; status: 'succeeded' | 'failed' },
  ): Promise<boolean> {
    const record = this.webhooks.get(webhookKey(tenantId, workspaceId, webhookId));
    if (!record) return false;
    if (record.lastDeliveryAt !== undefined && compare(record.lastDeliveryAt, outcome.at) > 0) return false;
    record.lastDeliveryAt = outcome.at;
    record.lastDeliveryStatus = outcome.status;
    record.consecutiveFailures = outcome.status === 'succeeded' ? 0 : record.consecutiveFailures + 1;
    return true;
  }

  async createDelivery(
    input: Parameters<WebhookStore['createDelivery']>[0],
  ): Promise<{ delivery: WebhookDelivery; created: boolean }> {
    const deliveryId = webhookDeliveryId(input.webhookId, input.event.id);
    const key = deliveryKey({ ...input, deliveryId });
    const existing = this.deliveries.get(key);
    if (existing) return { delivery: structuredClone(existing), created: false };
    const delivery = newDelivery(structuredClone(input));
    this.deliveries.set(key, delivery);
    return { delivery: structuredClone(delivery), created: true };
  }

  async getDelivery(key: DeliveryKey): Promise<WebhookDelivery | undefined> {
    const delivery = this.deliveries.get(deliveryKey(key));
    return delivery && structuredClone(delivery);
  }

  async recordAttempt(
    key: DeliveryKey,
    change: Parameters<WebhookStore['recordAttempt']>[1],
    expectedAttempts: number,
  ): Promise<WebhookDelivery | undefined> {
    const current = this.deliveries.get(deliveryKey(key));
    if (!current || current.attempts.length !== expectedAttempts) return undefined;
    const error = change.attempt.error?.slice(0, MAX_ERROR_LENGTH);
    const attempt = { ...structuredClone(change.attempt), ...(error !== undefined && { error }) };
    const {
      responseStatus: _status,
      error: _error,
      nextAttemptAt: _next,
      ...unchanged
    } = structuredClone(current);
    const updated: WebhookDelivery = {
      ...unchanged,
      attempts: [...current.attempts, attempt],
      status: change.status,
      lastAttemptAt: attempt.at,
      responseTimeMs: attempt.durationMs,
      ...(attempt.responseStatus !== undefined && { responseStatus: attempt.responseStatus }),
      ...(error !== undefined && { error }),
      ...(change.nextAttemptAt !== undefined && { nextAttemptAt: change.nextAttemptAt }),
    };
    this.deliveries.set(deliveryKey(key), updated);
    return structuredClone(updated);
  }

  async requestDispatch(key: DeliveryKey, at: string): Promise<WebhookDelivery | undefined> {
    const current = this.deliveries.get(deliveryKey(key));
    if (!current) return undefined;
    const updated: WebhookDelivery = {
      ...current,
      status: 'pending',
      nextAttemptAt: at,
      dispatchRequestedAt: at,
    };
    this.deliveries.set(deliveryKey(key), updated);
    return structuredClone(updated);
  }

  async listDeliveries(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
    query: DeliveryListQuery,
  ): Promise<Page<WebhookDelivery>> {
    const scope = `deliveries/${webhookKey(tenantId, workspaceId, webhookId)}/${query.status ?? ''}`;
    const after = query.cursor ? decodeListCursor(query.cursor, scope) : undefined;
    const newestFirst = [...this.deliveries.values()]
      .filter((d) => d.tenantId === tenantId && d.workspaceId === workspaceId && d.webhookId === webhookId)
      .filter((d) => query.status === undefined || d.status === query.status)
      .filter((d) => after === undefined || compare(d.deliveryId, after) < 0)
      .sort((a, b) => compare(b.deliveryId, a.deliveryId));
    return pageOf(newestFirst, (delivery) => delivery.deliveryId, query.limit, scope);
  }

  /** appendEvents calls: the fan-out's tests count its feed writes. */
  feedWrites = 0;

  async appendEvents(events: readonly FeedEvent[]): Promise<void> {
    this.feedWrites += 1;
    for (const event of events)
      if (!isIdOf('event', event.id)) throw new RangeError('A feed event has an evt_… id.');
    for (const event of events)
      this.events.set(
        `${workspaceKey(event.tenantId, event.workspaceId)}/${event.id}`,
        structuredClone(event),
      );
  }

  async readEvents(tenantId: string, workspaceId: string, query: FeedQuery): Promise<Page<FeedEvent>> {
    const types = [...new Set(query.types ?? [])].sort();
    const scope = `events/${workspaceKey(tenantId, workspaceId)}/${types.join(',')}`;
    let after: string | undefined;
    if (query.after !== undefined) {
      after = isIdOf('event', query.after) ? query.after : decodeListCursor(query.after, scope);
    }
    const from = this.clock.now() - RETENTION_MS;
    const before =
      query.createdBefore === undefined ? Number.POSITIVE_INFINITY : Date.parse(query.createdBefore);
    if (Number.isNaN(before)) throw new RangeError('createdBefore is an ISO 8601 time.');
    // As DynamoDB: the page's limit counts the events read, and the type filter applies after it.
    const inRange = [...this.events.values()]
      .filter((event) => event.tenantId === tenantId && event.workspaceId === workspaceId)
      .filter((event) => idTime(event.id) >= from && idTime(event.id) < before)
      .filter((event) => after === undefined || compare(event.id, after) > 0)
      .sort((a, b) => compare(a.id, b.id));
    const read = inRange.slice(0, query.limit);
    const last = read.at(-1);
    return {
      items: read
        .filter((event) => types.length === 0 || types.includes(event.type))
        .map((event) => structuredClone(event)),
      ...(last && inRange.length > read.length && { nextCursor: encodeListCursor(scope, last.id) }),
    };
  }
}
