import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../domain/errors.js';
import type { IdempotencyRecord } from '../../domain/idempotency.js';
import type { Media } from '../../domain/media.js';
import type { Post } from '../../domain/posts.js';
import type { Account, Workspace } from '../../domain/tenancy.js';
import { IdempotencyRace, type PostStore } from '../../ports/post-store.js';
import { decodeCursor } from './cursor.js';
import { DUE_SHARDS, fromItem, keys, toItem } from './keys.js';
import { queryLookingAhead } from './look-ahead-query.js';
import { postListQuery } from './post-list-query.js';
import type { TableNames } from './tables.js';

const MAX_BATCH_GET = 100;

function postItem(post: Post) {
  return toItem(
    'post',
    {
      ...keys.post(post.tenantId, post.workspaceId, post.postId),
      ...keys.postByStatus(post),
      ...keys.postDue(post),
      ...keys.postByExternalId(post),
    },
    post,
  );
}

export function makeDynamoPostStore(
  db: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'main' | 'idempotency'>,
): PostStore {
  /** Items of the main table by key, in one BatchGetItem (again for keys it leaves unprocessed). */
  const batchGet = async (wanted: { pk: string; sk: string }[]) => {
    const found: Record<string, unknown>[] = [];
    let pending: Record<string, unknown>[] = wanted.slice(0, MAX_BATCH_GET);
    // BatchGet may leave keys unprocessed under load; ask again for those until none are left.
    for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
      const { Responses, UnprocessedKeys } = await db.send(
        new BatchGetCommand({ RequestItems: { [tables.main]: { Keys: pending } } }),
      );
      found.push(...(Responses?.[tables.main] ?? []));
      pending = UnprocessedKeys?.[tables.main]?.Keys ?? [];
    }
    return (sk: string) => found.find((item) => item.sk === sk);
  };
  const mediaKeys = (tenantId: string, workspaceId: string, mediaIds: string[]) =>
    [...new Set(mediaIds)].map((id) => keys.media(tenantId, workspaceId, id));
  const mediaOf = (
    bySk: (sk: string) => Record<string, unknown> | undefined,
    wanted: { pk: string; sk: string }[],
  ) => {
    const media = new Map<string, Media>();
    for (const key of wanted) {
      const item = bySk(key.sk);
      if (item?.entity === 'media') {
        const record = fromItem<Media>(item);
        media.set(record.mediaId, record);
      }
    }
    return media;
  };

  return {
    async loadContext(tenantId, workspaceId, accountId, mediaIds) {
      const workspaceKey = keys.workspace(tenantId, workspaceId);
      const accountKey = keys.account(tenantId, workspaceId, accountId);
      const media = mediaKeys(tenantId, workspaceId, mediaIds);
      const bySk = await batchGet([workspaceKey, accountKey, ...media]);
      const workspaceItem = bySk(workspaceKey.sk);
      const accountItem = bySk(accountKey.sk);
      return {
        ...(workspaceItem && { workspace: fromItem<Workspace>(workspaceItem) }),
        ...(accountItem && { account: fromItem<Account>(accountItem) }),
        media: mediaOf(bySk, media),
      };
    },

    async getForDelivery(tenantId, workspaceId, postId, accountId, mediaIds) {
      const postKey = keys.post(tenantId, workspaceId, postId);
      const accountKey = keys.account(tenantId, workspaceId, accountId);
      const media = mediaKeys(tenantId, workspaceId, mediaIds);
      const bySk = await batchGet([postKey, accountKey, ...media]);
      const postItem = bySk(postKey.sk);
      const accountItem = bySk(accountKey.sk);
      return {
        ...(postItem && { post: fromItem<Post>(postItem) }),
        context: {
          ...(accountItem && { account: fromItem<Account>(accountItem) }),
          media: mediaOf(bySk, media),
        },
      };
    },

    async create(post, idempotency) {
      const putPost = {
        TableName: tables.main,
        Item: postItem(post),
        ConditionExpression: 'attribute_not_exists(pk)',
      };
      if (!idempotency) {
        await db.send(new PutCommand(putPost));
        return;
      }
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: putPost },
              {
                Put: {
                  TableName: tables.idempotency,
                  Item: { ...idempotency, ...keys.idempotency(idempotency.tenantId, idempotency.key) },
                  // An expired record may be overwritten even before TTL has deleted it.
                  ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
                  ExpressionAttributeValues: { ':now': Math.floor(Date.parse(idempotency.createdAt) / 1000) },
                },
              },
            ],
          }),
        );
      } catch (error) {
        // Cancelled because the key's record exists (ConditionalCheckFailed) or is being written by a
        // concurrent request (TransactionConflict): either way the caller replays the winner's answer.
        if (error instanceof TransactionCanceledException) throw new IdempotencyRace();
        throw error;
      }
    },

    async get(tenantId, workspaceId, postId) {
      const { Item } = await db.send(
        new GetCommand({ TableName: tables.main, Key: keys.post(tenantId, workspaceId, postId) }),
      );
      return Item ? fromItem<Post>(Item) : undefined;
    },

    async list(tenantId, workspaceId, query) {
      const partition = keys.workspacePartition(tenantId, workspaceId);
      const plan = postListQuery(tables.main, partition, query);
      const start = query.cursor ? decodeCursor(query.cursor, plan.scope) : undefined;
      if (plan.empty) return { items: [] };
      const found = await queryLookingAhead(db, plan.input, {
        limit: query.limit,
        scope: plan.scope,
        ...(start && { startKey: plan.startKey(start) }),
      });
      return { ...found, items: found.items.map((item) => fromItem<Post>(item)) };
    },

    async update(post, expectedVersion) {
      try {
        await db.send(
          new PutCommand({
            TableName: tables.main,
            Item: postItem(post),
            ConditionExpression: 'attribute_exists(pk) AND #version = :expected',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':expected': expectedVersion },
          }),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) {
          throw new ConflictError(
            'The post changed while this request was being handled. Read it again and retry.',
          );
        }
        throw error;
      }
    },

    async getIdempotencyRecord(tenantId, key, nowSeconds) {
      const { Item } = await db.send(
        new GetCommand({
          TableName: tables.idempotency,
          Key: keys.idempotency(tenantId, key),
          ConsistentRead: true,
        }),
      );
      if (!Item || Number(Item.expiresAt) < nowSeconds) return undefined;
      const { pk: _pk, ...record } = Item;
      return record as IdempotencyRecord;
    },

    async listOverdue(status, before, limit) {
      const found: Post[] = [];
      for (let shard = 0; shard < DUE_SHARDS && found.length < limit; shard++) {
        const { Items } = await db.send(
          new QueryCommand({
            TableName: tables.main,
            IndexName: 'gsi2',
            KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :before',
            ExpressionAttributeValues: { ':pk': `DUE#${status}#${shard}`, ':before': before },
            Limit: limit - found.length,
          }),
        );
        found.push(...(Items ?? []).map((item) => fromItem<Post>(item)));
      }
      return found;
    },
  };
}
