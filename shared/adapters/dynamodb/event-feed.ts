import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { encodeTime, TIME_LEN } from 'ulid';
import { ID_PREFIXES, isIdOf } from '../../domain/ids.js';
import type { Clock } from '../../ports/clock.js';
import { type EventFeed, type FeedEvent, WEBHOOK_RETENTION_DAYS } from '../../ports/webhook-store.js';
import { type CursorScope, decodeCursor } from './cursor.js';
import { fromItem, keys, toItem } from './keys.js';
import { queryLookingAhead } from './look-ahead-query.js';
import { writeInBatches } from './write-batches.js';

const RETENTION_MS = WEBHOOK_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** Every event id's sort key starts so; '~' sorts after every character of an id. */
const EVENT_KEY_PREFIX = `${keys.feedEventPrefix}${ID_PREFIXES.event}_`;
const AFTER_EVERY_EVENT = `${EVENT_KEY_PREFIX}~`;

/** The sort key below every event created at `ms` or later (ids begin with their time). */
function firstKeyAt(ms: number): string {
  return `${EVENT_KEY_PREFIX}${encodeTime(Math.max(0, ms), TIME_LEN)}`;
}

function toFeedEvent(item: Record<string, unknown>): FeedEvent {
  const { expiresAt: _ttl, ...event } = fromItem<FeedEvent & { expiresAt?: number }>(item);
  return event;
}

/**
 * The workspace's events in one partition, sorted by event id (`EVENT#evt_…`: ids begin with the
 * time of their change). A read's key condition starts WEBHOOK_RETENTION_DAYS ago, so an expired
 * event that TTL has not deleted yet is never shown, and ends before `createdBefore` when given.
 */
export function makeDynamoEventFeed(db: DynamoDBDocumentClient, tableName: string, clock: Clock): EventFeed {
  return {
    async appendEvents(events) {
      for (const event of events)
        if (!isIdOf('event', event.id)) throw new RangeError('A feed event has an evt_… id.');
      // Unconditional: a redelivered event has the same id and content (FeedEvent's contract), so
      // writing it again leaves one copy, and one call carries a whole batch of events.
      await writeInBatches(
        tableName,
        events.map((event) => ({
          PutRequest: {
            Item: {
              ...toItem('event', keys.feedEvent(event.tenantId, event.workspaceId, event.id), event),
              expiresAt: Math.floor((Date.parse(event.createdAt) + RETENTION_MS) / 1000),
            },
          },
        })),
        { writeBatch: (input) => db.send(new BatchWriteCommand(input)) },
      );
    },

    async readEvents(tenantId, workspaceId, query) {
      const partition = keys.feedPartition(tenantId, workspaceId);
      const types = [...new Set(query.types ?? [])].sort();
      const scope: CursorScope = {
        query: { list: 'events', partition, types: types.length > 0 ? types.join(',') : undefined },
        keys: { sk: { prefix: EVENT_KEY_PREFIX } },
      };
      const from = firstKeyAt(clock.now() - RETENTION_MS);
      const before = query.createdBefore === undefined ? undefined : Date.parse(query.createdBefore);
      if (Number.isNaN(before)) throw new RangeError('createdBefore is an ISO 8601 time.');
      const to = before === undefined ? AFTER_EVERY_EVENT : firstKeyAt(before);
      let position: string | undefined;
      if (query.after !== undefined) {
        position = isIdOf('event', query.after)
          ? `${keys.feedEventPrefix}${query.after}`
          : decodeCursor(query.after, scope).sk;
      }
      // Nothing lies in the window: DynamoDB would refuse an empty BETWEEN or a start key past its end.
      if (from >= to || (position !== undefined && position >= to)) return { items: [] };
      // A position older than the retention window starts the read at the window's beginning.
      const start = position !== undefined && position >= from ? position : undefined;
      const found = await queryLookingAhead(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': partition,
            ':from': from,
            ':to': to,
            ...Object.fromEntries(types.map((type, i) => [`:type${i}`, type])),
          },
          ...(types.length > 0 && {
            FilterExpression: `#type IN (${types.map((_, i) => `:type${i}`).join(', ')})`,
            ExpressionAttributeNames: { '#type': 'type' },
          }),
        },
        { limit: query.limit, scope, ...(start && { startKey: { pk: partition, sk: start } }) },
      );
      return { ...found, items: found.items.map(toFeedEvent) };
    },
  };
}
