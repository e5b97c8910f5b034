import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ID_PREFIXES } from '../../domain/ids.js';
import type { PostListQuery } from '../../ports/post-store.js';
import type { CursorScope, KeyBounds } from './cursor.js';
import { EXTERNAL_ID_END, keys } from './keys.js';

/** Sort keys of the scheduled index are `<scheduledAt>#<postId>`; '~' sorts after every id character. */
const AFTER_ANY_POST_ID = '~';

export interface PostListPlan {
  input: QueryCommandInput;
  scope: CursorScope;
  /** The ExclusiveStartKey for a decoded cursor position: the position with the partition keys. */
  startKey: (position: Record<string, string>) => Record<string, string>;
  empty: boolean;
}

/**
 * The Query behind GET .../posts, without its page (Limit, ExclusiveStartKey), and the scope its
 * cursors belong to:
 * - status=scheduled reads the status index in scheduledAt order; scheduledFrom/scheduledTo become
 *   its key condition (either bound alone, or both);
 * - another status reads the status index, newest first; the range filters on scheduledAt;
 * - externalId or externalIdPrefix reads the externalId index in externalId order; status and the
 *   range filter there;
 * - no status reads the workspace's posts, newest first.
 * An inverted range (scheduledFrom after scheduledTo) is `empty`: DynamoDB would refuse it.
 */
export function postListQuery(
  tableName: string,
  partition: string,
  query: Omit<PostListQuery, 'limit' | 'cursor'>,
): PostListPlan {
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const empty = Boolean(query.scheduledFrom && query.scheduledTo && query.scheduledFrom > query.scheduledTo);
  const scope: CursorScope = {
    query: {
      list: 'posts',
      partition,
      status: query.status,
      accountId: query.accountId,
      platform: query.platform,
      scheduledFrom: query.scheduledFrom,
      scheduledTo: query.scheduledTo,
      externalId: query.externalId,
      externalIdPrefix: query.externalIdPrefix,
    },
    keys: { sk: { prefix: keys.postPrefix } },
  };
  const byExternalId = query.externalId !== undefined || query.externalIdPrefix !== undefined;
  if (query.accountId) {
    filters.push('#accountId = :accountId');
    names['#accountId'] = 'accountId';
    values[':accountId'] = query.accountId;
  }
  if (query.platform) {
    filters.push('#platform = :platform');
    names['#platform'] = 'platform';
    values[':platform'] = query.platform;
  }
  const byScheduledIndex = query.status === 'scheduled' && !byExternalId;
  if (byExternalId && query.status) {
    filters.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = query.status;
  }
  if (!byScheduledIndex && (query.scheduledFrom || query.scheduledTo)) {
    names['#scheduledAt'] = 'scheduledAt';
    if (query.scheduledFrom) {
      filters.push('#scheduledAt >= :from');
      values[':from'] = query.scheduledFrom;
    }
    if (query.scheduledTo) {
      filters.push('#scheduledAt <= :to');
      values[':to'] = query.scheduledTo;
    }
  }
  const page = {
    ...(filters.length > 0 && { FilterExpression: filters.join(' AND ') }),
    ...(Object.keys(names).length > 0 && { ExpressionAttributeNames: names }),
  };

  if (byExternalId) {
    // An exact externalId is the prefix that ends where the externalId does.
    const prefix =
      query.externalId !== undefined
        ? `${query.externalId}${EXTERNAL_ID_END}`
        : (query.externalIdPrefix ?? '');
    const gsi3pk = keys.postsByExternalId(partition);
    values[':gsi3pk'] = gsi3pk;
    values[':prefix'] = prefix;
    return {
      input: {
        TableName: tableName,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :gsi3pk AND begins_with(gsi3sk, :prefix)',
        ExpressionAttributeValues: values,
        ...page,
      },
      scope: { ...scope, keys: { ...scope.keys, gsi3sk: { prefix } } },
      startKey: (start) => ({ ...start, pk: partition, gsi3pk }),
      empty,
    };
  }

  if (!query.status) {
    values[':pk'] = partition;
    values[':prefix'] = keys.postPrefix;
    return {
      input: {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ScanIndexForward: false,
        ExpressionAttributeValues: values,
        ...page,
      },
      scope,
      startKey: (position) => ({ ...position, pk: partition }),
      empty,
    };
  }

  const gsi1pk = `${partition}#STATUS#${query.status}`;
  values[':gsi1pk'] = gsi1pk;
  let keyCondition = 'gsi1pk = :gsi1pk';
  // Other statuses sort by post id; scheduled ones by time, within the range when one is given.
  let position: KeyBounds = { prefix: `${ID_PREFIXES.post}_` };
  if (byScheduledIndex) {
    const from = query.scheduledFrom;
    const to = query.scheduledTo && `${query.scheduledTo}${AFTER_ANY_POST_ID}`;
    if (from) values[':fromKey'] = from;
    if (to) values[':toKey'] = to;
    if (from && to) keyCondition += ' AND gsi1sk BETWEEN :fromKey AND :toKey';
    else if (from) keyCondition += ' AND gsi1sk >= :fromKey';
    else if (to) keyCondition += ' AND gsi1sk <= :toKey';
    position = { ...(from && { from }), ...(to && { to }) };
  }
  return {
    input: {
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: keyCondition,
      ScanIndexForward: byScheduledIndex,
      ExpressionAttributeValues: values,
      ...page,
    },
    scope: { ...scope, keys: { ...scope.keys, gsi1sk: position } },
    startKey: (start) => ({ ...start, pk: partition, gsi1pk }),
    empty,
  };
}
