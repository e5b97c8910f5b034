import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../domain/errors.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccountStore } from '../../ports/account-store.js';
import { type CursorScope, decodeCursor } from './cursor.js';
import { readItem } from './item-reads.js';
import { fromItem, keys, TOKEN_EXPIRY_PARTITION, toItem, tokenExpiryKey } from './keys.js';
import { queryLookingAhead } from './look-ahead-query.js';
import { queryPage } from './query-page.js';

/** The look-up item from a workspace's network user to its account (keys.accountNetworkUser). */
interface AccountNetworkUser {
  tenantId: string;
  workspaceId: string;
  platform: string;
  networkUserId: string;
  accountId: string;
}

/**
 * Accounts, in their workspace's partition, with a gsi2 entry by token expiry while connected and a
 * look-up item per network user (docs/data-model.md).
 */
export function makeDynamoAccountStore(db: DynamoDBDocumentClient, tableName: string): AccountStore {
  return {
    async putAccount(account) {
      const accountItem = toItem(
        'account',
        {
          ...keys.account(account.tenantId, account.workspaceId, account.accountId),
          ...keys.accountTokenExpiry(account),
        },
        account,
      );
      if (!account.networkUserId) {
        await db.send(new PutCommand({ TableName: tableName, Item: accountItem }));
        return;
      }
      const lookUp: AccountNetworkUser = {
        tenantId: account.tenantId,
        workspaceId: account.workspaceId,
        platform: account.platform,
        networkUserId: account.networkUserId,
        accountId: account.accountId,
      };
      const lookUpKey = keys.accountNetworkUser(
        account.tenantId,
        account.workspaceId,
        account.platform,
        account.networkUserId,
      );
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: accountItem } },
              {
                Put: {
                  TableName: tableName,
                  Item: toItem('accountNetworkUser', lookUpKey, lookUp),
                  // One account per network user and workspace, however many connects race.
                  ConditionExpression: 'attribute_not_exists(pk) OR accountId = :accountId',
                  ExpressionAttributeValues: { ':accountId': account.accountId },
                },
              },
            ],
          }),
        );
      } catch (error) {
        if (error instanceof TransactionCanceledException) {
          throw new ConflictError(
            'Another account of this workspace was connected for this network user at the same time. Retry.',
          );
        }
        throw error;
      }
    },
    async markAccountDisconnected(tenantId, workspaceId, accountId, change) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.account(tenantId, workspaceId, accountId),
            ConditionExpression: '#status = :connected',
            // The tokens go with the connection, and the version moves on, so a refresh that read
            // the old tokens cannot write them back (replaceAccountTokens).
            UpdateExpression:
              'SET #status = :disconnected, disconnectedAt = :at, disconnectReason = :reason, ' +
              'tokensVersion = if_not_exists(tokensVersion, :zero) + :one ' +
              'REMOVE encryptedTokens, tokenExpiresAt, refreshExpiresAt, gsi2pk, gsi2sk',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':connected': 'connected',
              ':disconnected': 'disconnected',
              ':at': change.at,
              ':reason': change.reason,
              ':zero': 0,
              ':one': 1,
            },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
    async findAccountByNetworkUser(tenantId, workspaceId, platform, networkUserId) {
      const lookUp = await readItem<AccountNetworkUser>(
        db,
        tableName,
        keys.accountNetworkUser(tenantId, workspaceId, platform, networkUserId),
        { consistent: true },
      );
      if (!lookUp) return undefined;
      return readItem<Account>(db, tableName, keys.account(tenantId, workspaceId, lookUp.accountId), {
        consistent: true,
      });
    },
    async replaceAccountTokens(tenantId, workspaceId, accountId, change) {
      const set = ['encryptedTokens = :tokens', 'tokensVersion = :next', 'scopes = :scopes'];
      const remove: string[] = [];
      const values: Record<string, unknown> = {
        ':tokens': change.encryptedTokens,
        ':next': change.expectedVersion + 1,
        ':expected': change.expectedVersion,
        ':scopes': change.scopes,
        ':connected': 'connected',
      };
      if (change.tokenExpiresAt) {
        set.push('tokenExpiresAt = :expiresAt', 'gsi2pk = :gsi2pk', 'gsi2sk = :gsi2sk');
        values[':expiresAt'] = change.tokenExpiresAt;
        values[':gsi2pk'] = TOKEN_EXPIRY_PARTITION;
        values[':gsi2sk'] = tokenExpiryKey(change.tokenExpiresAt, accountId);
      } else {
        remove.push('tokenExpiresAt', 'gsi2pk', 'gsi2sk');
      }
      if (change.refreshExpiresAt) {
        set.push('refreshExpiresAt = :refreshExpiresAt');
        values[':refreshExpiresAt'] = change.refreshExpiresAt;
      } else {
        remove.push('refreshExpiresAt');
      }
      // An account written before token versions existed counts as version 0.
      const versionCondition =
        change.expectedVersion === 0
          ? '(attribute_not_exists(tokensVersion) OR tokensVersion = :expected)'
          : 'tokensVersion = :expected';
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.account(tenantId, workspaceId, accountId),
            ConditionExpression: `#status = :connected AND ${versionCondition}`,
            UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: values,
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
    async recordAccountMetrics(tenantId, workspaceId, accountId, metrics) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.account(tenantId, workspaceId, accountId),
            ConditionExpression: 'attribute_exists(pk)',
            // METRICS is one of DynamoDB's reserved words.
            UpdateExpression: 'SET #metrics = :metrics',
            ExpressionAttributeNames: { '#metrics': 'metrics' },
            ExpressionAttributeValues: { ':metrics': metrics },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
    async listAccountsExpiringBefore(before, page) {
      const scope: CursorScope = {
        query: { list: 'accounts-expiring', before },
        keys: { pk: { prefix: 'TENANT#' }, sk: { prefix: keys.accountPrefix }, gsi2sk: {} },
      };
      const start = page.cursor ? decodeCursor(page.cursor, scope) : undefined;
      const found = await queryLookingAhead(
        db,
        {
          TableName: tableName,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :before',
          ExpressionAttributeValues: {
            ':pk': TOKEN_EXPIRY_PARTITION,
            ':before': new Date(before).toISOString(),
          },
        },
        {
          limit: page.limit,
          scope,
          ...(start && { startKey: { ...start, gsi2pk: TOKEN_EXPIRY_PARTITION } }),
        },
      );
      return { ...found, items: found.items.map((item) => fromItem<Account>(item)) };
    },
    getAccount: (tenantId, workspaceId, accountId) =>
      readItem<Account>(db, tableName, keys.account(tenantId, workspaceId, accountId)),
    listAccounts: (tenantId, workspaceId, page, filter) =>
      queryPage<Account>(db, tableName, {
        pk: keys.workspacePartition(tenantId, workspaceId),
        prefix: keys.accountPrefix,
        page,
        ...(filter?.platform && { filter: { platform: filter.platform } }),
      }),
  };
}
