import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../domain/errors.js';
import type { DashboardSession, OneTimeToken, User } from '../../domain/users.js';
import type { UserStore } from '../../ports/user-store.js';
import { fromItem, keys, toItem } from './keys.js';
import { updateExisting } from './update-existing.js';

/** TTL deletes an expired item some time after this (epoch seconds); reads never trust TTL alone. */
const ttlSeconds = (expiresAt: string) => Math.ceil(Date.parse(expiresAt) / 1000);

/** The look-up item from an email to its user (keys.userEmail). */
interface UserEmail {
  email: string;
  tenantId: string;
  userId: string;
}

/**
 * Items that expire keep their ISO expiry in `expiresAtIso` and give `expiresAt` (the table's TTL
 * attribute) the epoch seconds DynamoDB's TTL needs.
 */
type Expiring<T extends { expiresAt: string }> = Omit<T, 'expiresAt'> & {
  expiresAtIso: string;
  expiresAt: number;
};

function toExpiring<T extends { expiresAt: string }>(value: T): Expiring<T> {
  const { expiresAt, ...rest } = value;
  return { ...rest, expiresAtIso: expiresAt, expiresAt: ttlSeconds(expiresAt) };
}

function fromExpiring<T extends { expiresAt: string }>(item: Record<string, unknown>): T {
  const { expiresAtIso, expiresAt: _ttl, ...rest } = item;
  return fromItem<T>({ ...rest, expiresAt: expiresAtIso });
}

/**
 * A new password ends every session (sessionEpoch) and revokes every set-password link
 * (linkEpoch), whichever way it was set.
 */
const SET_PASSWORD = 'SET passwordHash = :hash ADD sessionEpoch :one, linkEpoch :one';

/** The sign-in failure counter of `key` in the window starting at `windowStart` (rate-limits table). */
const signInCounterKey = (key: string, windowStart: string) => ({ pk: `SIGNIN#${key}#${windowStart}` });

/**
 * Dashboard users, sessions and one-time links in the main table (users under their tenant; an
 * email item makes each email one user; sessions and links by the SHA-256 of their secret, deleted
 * by TTL). Sign-in failure counters live in the rate-limits table, so their churn never reaches
 * the main table's stream.
 */
export function makeDynamoUserStore(
  db: DynamoDBDocumentClient,
  tables: { main: string; rateLimits: string },
): UserStore {
  const getItem = async (key: Record<string, string>, consistent = false) => {
    const { Item } = await db.send(
      new GetCommand({ TableName: tables.main, Key: key, ...(consistent && { ConsistentRead: true }) }),
    );
    return Item;
  };

  /** A new expiring item (a session, a link): its key is a fresh secret's hash, so never a replace. */
  const putNew = async (
    entity: 'session' | 'oneTimeToken',
    key: Record<string, string>,
    value: { expiresAt: string },
  ): Promise<void> => {
    await db.send(
      new PutCommand({
        TableName: tables.main,
        Item: toItem(entity, key, toExpiring(value)),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  };

  const getUser = async (tenantId: string, userId: string, consistent = false) => {
    const item = await getItem(keys.user(tenantId, userId), consistent);
    return item ? fromItem<User>(item) : undefined;
  };

  return {
    async createUser(user) {
      const email: UserEmail = { email: user.email, tenantId: user.tenantId, userId: user.userId };
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tables.main,
                  Item: toItem('userEmail', keys.userEmail(user.email), email),
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Put: {
                  TableName: tables.main,
                  Item: toItem('user', keys.user(user.tenantId, user.userId), user),
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        );
      } catch (error) {
        if (error instanceof TransactionCanceledException) {
          throw new ConflictError(`A user with the email ${user.email} exists already.`);
        }
        throw error;
      }
    },

    getUser: (tenantId, userId) => getUser(tenantId, userId),

    async findUserByEmail(email) {
      const item = await getItem(keys.userEmail(email), true);
      if (!item) return undefined;
      const entry = fromItem<UserEmail>(item);
      return getUser(entry.tenantId, entry.userId, true);
    },

    async listUsers(tenantId) {
      const users: User[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const result = await db.send(
          new QueryCommand({
            TableName: tables.main,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': keys.tenant(tenantId).pk, ':prefix': keys.userPrefix },
            ...(start && { ExclusiveStartKey: start }),
          }),
        );
        users.push(...(result.Items ?? []).map((item) => fromItem<User>(item)));
        start = result.LastEvaluatedKey;
      } while (start);
      return users;
    },

    async setPassword(tenantId, userId, passwordHash) {
      return updateExisting<User>(
        db,
        {
          TableName: tables.main,
          Key: keys.user(tenantId, userId),
          UpdateExpression: SET_PASSWORD,
          ExpressionAttributeValues: { ':hash': passwordHash, ':one': 1 },
        },
        'user',
      );
    },

    async setPasswordWithLink(tenantId, userId, passwordHash, linkEpoch) {
      // A user without an epoch is at 0: a link from before epochs works until the first bump.
      const current =
        linkEpoch === 0 ? '(attribute_not_exists(linkEpoch) OR linkEpoch = :epoch)' : 'linkEpoch = :epoch';
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tables.main,
            Key: keys.user(tenantId, userId),
            UpdateExpression: SET_PASSWORD,
            ConditionExpression: `attribute_exists(pk) AND ${current}`,
            ExpressionAttributeValues: { ':hash': passwordHash, ':one': 1, ':epoch': linkEpoch },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? fromItem<User>(Attributes) : undefined;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return undefined;
        throw error;
      }
    },

    async revokeSetPasswordLinks(tenantId, userId) {
      const user = await updateExisting<User>(
        db,
        {
          TableName: tables.main,
          Key: keys.user(tenantId, userId),
          UpdateExpression: 'ADD linkEpoch :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
        'user',
      );
      return user.linkEpoch ?? 1;
    },

    putSession: (session) => putNew('session', keys.session(session.sessionHash), session),
    async getSession(sessionHash) {
      const item = await getItem(keys.session(sessionHash));
      return item ? fromExpiring<DashboardSession>(item) : undefined;
    },
    async deleteSession(sessionHash) {
      await db.send(new DeleteCommand({ TableName: tables.main, Key: keys.session(sessionHash) }));
    },

    putOneTimeToken: (token) => putNew('oneTimeToken', keys.oneTimeToken(token.tokenHash), token),
    async getOneTimeToken(tokenHash) {
      const item = await getItem(keys.oneTimeToken(tokenHash), true);
      return item ? fromExpiring<OneTimeToken>(item) : undefined;
    },
    async takeOneTimeToken(tokenHash) {
      try {
        // DeleteItem with the old item back: DynamoDB gives it to exactly one caller.
        const { Attributes } = await db.send(
          new DeleteCommand({
            TableName: tables.main,
            Key: keys.oneTimeToken(tokenHash),
            ConditionExpression: 'attribute_exists(pk)',
            ReturnValues: 'ALL_OLD',
          }),
        );
        return Attributes ? fromExpiring<OneTimeToken>(Attributes) : undefined;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return undefined;
        throw error;
      }
    },

    async countSignInFailure(key, windowStart, expiresAt) {
      const { Attributes } = await db.send(
        new UpdateCommand({
          TableName: tables.rateLimits,
          Key: signInCounterKey(key, windowStart),
          UpdateExpression: 'ADD #count :one SET expiresAt = if_not_exists(expiresAt, :expires)',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':expires': ttlSeconds(expiresAt) },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(Attributes?.count ?? 1);
    },
    async signInFailures(key, windowStart) {
      const { Item } = await db.send(
        new GetCommand({
          TableName: tables.rateLimits,
          Key: signInCounterKey(key, windowStart),
          ConsistentRead: true,
        }),
      );
      return Number(Item?.count ?? 0);
    },
  };
}
