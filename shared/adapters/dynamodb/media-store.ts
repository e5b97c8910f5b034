import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Media } from '../../domain/media.js';
import type { MediaStore } from '../../ports/media-store.js';
import { fromItem, keys, toItem } from './keys.js';
import { queryPage } from './query-page.js';

const MEDIA_PREFIX = 'MEDIA#';

export function makeDynamoMediaStore(db: DynamoDBDocumentClient, tableName: string): MediaStore {
  const get = async (tenantId: string, workspaceId: string, mediaId: string) => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.media(tenantId, workspaceId, mediaId),
        ConsistentRead: true,
      }),
    );
    return Item ? fromItem<Media>(Item) : undefined;
  };
  return {
    async put(media) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem('media', keys.media(media.tenantId, media.workspaceId, media.mediaId), media),
        }),
      );
    },
    get,
    list: (tenantId, workspaceId, page) =>
      queryPage<Media>(db, tableName, {
        pk: keys.workspacePartition(tenantId, workspaceId),
        prefix: MEDIA_PREFIX,
        page,
        newestFirst: true,
      }),
    async settle(tenantId, workspaceId, mediaId, change) {
      const names = Object.keys(change) as (keyof typeof change)[];
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.media(tenantId, workspaceId, mediaId),
            ConditionExpression: 'attribute_exists(pk) AND #status = :pending',
            UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
            ExpressionAttributeNames: {
              '#status': 'status',
              ...Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
            },
            ExpressionAttributeValues: {
              ':pending': 'pending',
              ...Object.fromEntries(names.map((name, i) => [`:v${i}`, change[name]])),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return fromItem<Media>(Attributes ?? {});
      } catch (error) {
        // Already settled (a repeated confirm, or the notification and a confirm racing): as it is.
        if (error instanceof ConditionalCheckFailedException) return get(tenantId, workspaceId, mediaId);
        throw error;
      }
    },
    async delete(tenantId, workspaceId, mediaId) {
      const { Attributes } = await db.send(
        new DeleteCommand({
          TableName: tableName,
          Key: keys.media(tenantId, workspaceId, mediaId),
          ReturnValues: 'ALL_OLD',
        }),
      );
      return Attributes !== undefined;
    },
  };
}
