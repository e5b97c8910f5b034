import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { Account, Agent, ApiKeyRecord, Tenant, Workspace } from '../../domain/tenancy.js';
import type { Page, PageRequest, TenancyStore } from '../../ports/tenancy-store.js';
import { type CursorScope, decodeCursor } from './cursor.js';
import { fromItem, keys, TOKEN_EXPIRY_PARTITION, toItem, tokenExpiryKey } from './keys.js';
import { queryLookingAhead } from './look-ahead-query.js';
import { queryPage } from './query-page.js';
import { updateExisting } from './update-existing.js';

/** The look-up item from a workspace's network user to its account (keys.accountNetworkUser). */
interface AccountNetworkUser {
  tenantId: string;
  workspaceId: string;
  platform: string;
  networkUserId: string;
  accountId: string;
}

export function makeDynamoTenancyStore(db: DynamoDBDocumentClient, tableName: string): TenancyStore {
  const get = async <T>(
    key: Record<string, string>,
    options: { consistent?: boolean } = {},
  ): Promise<T | undefined> => {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: key, ...(options.consistent && { ConsistentRead: true }) }),
    );
    return Item ? fromItem<T>(Item) : undefined;
  };

  const queryPrefix = <T>(pk: string, prefix: string, page: PageRequest, filter?: Record<string, string>) =>
    queryPage<T>(db, tableName, { pk, prefix, page, ...(filter && { filter }) });

  /** Every item of a query, page after page: for the short lists of one tenant (agents, keys). */
  const queryAll = async <T>(command: Omit<QueryCommand['input'], 'ExclusiveStartKey'>): Promise<T[]> => {
    const found: T[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const result = await db.send(
        new QueryCommand({ ...command, ...(start && { ExclusiveStartKey: start }) }),
      );
      found.push(...(result.Items ?? []).map((item) => fromItem<T>(item)));
      start = result.LastEvaluatedKey;
    } while (start);
    return found;
  };

  return {
    async putTenant(tenant) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem('tenant', keys.tenant(tenant.tenantId), tenant),
        }),
      );
    },
    getTenant: (tenantId) => get<Tenant>(keys.tenant(tenantId)),
    async setPlan(tenantId, change) {
      const names = Object.keys(change) as (keyof typeof change)[];
      if (names.length === 0) {
        const tenant = await get<Tenant>(keys.tenant(tenantId));
        if (!tenant) throw new NotFoundError('No such tenant.');
        return tenant;
      }
      return updateExisting<Tenant>(
        db,
        {
          TableName: tableName,
          Key: keys.tenant(tenantId),
          UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, change[name]])),
        },
        'tenant',
      );
    },

    async putWorkspace(workspace) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem('workspace', keys.workspace(workspace.tenantId, workspace.workspaceId), workspace),
        }),
      );
    },
    getWorkspace: (tenantId, workspaceId) => get<Workspace>(keys.workspace(tenantId, workspaceId)),
    async setWorkspacePolicies(tenantId, workspaceId, policies) {
      return updateExisting<Workspace>(
        db,
        {
          TableName: tableName,
          Key: keys.workspace(tenantId, workspaceId),
          UpdateExpression: 'SET policies = :policies',
          ExpressionAttributeValues: { ':policies': policies },
        },
        'workspace',
      );
    },
    async setOAuthRedirectUris(tenantId, workspaceId, uris) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: workspaceId ? keys.workspace(tenantId, workspaceId) : keys.tenant(tenantId),
            ConditionExpression: 'attribute_exists(pk)',
            ...(uris.length > 0
              ? {
                  UpdateExpression: 'SET oauthRedirectUris = :uris',
                  ExpressionAttributeValues: { ':uris': uris },
                }
              : { UpdateExpression: 'REMOVE oauthRedirectUris' }),
          }),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException)
          throw new NotFoundError(workspaceId ? 'No such workspace.' : 'No such tenant.');
        throw error;
      }
    },
    listWorkspaces: (tenantId, page, visible): Promise<Page<Workspace>> =>
      queryPage<Workspace>(db, tableName, {
        pk: keys.tenant(tenantId).pk,
        prefix: keys.workspacePrefix,
        page,
        ...(visible && { keep: visible }),
      }),
    async renameWorkspace(tenantId, workspaceId, name) {
      return updateExisting<Workspace>(
        db,
        {
          TableName: tableName,
          Key: keys.workspace(tenantId, workspaceId),
          UpdateExpression: 'SET #name = :name',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': name },
        },
        'workspace',
      );
    },

    async putAgent(agent) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem('agent', keys.agent(agent.tenantId, agent.agentId), agent),
        }),
      );
    },
    getAgent: (tenantId, agentId) => get<Agent>(keys.agent(tenantId, agentId)),
    listAgents: (tenantId) => {
      const { pk, sk: prefix } = keys.agent(tenantId, '');
      return queryAll<Agent>({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      });
    },

    async putApiKey(record) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem(
            'apiKey',
            { ...keys.apiKey(record.keyHash), ...keys.apiKeyById(record.tenantId, record.keyId) },
            record,
          ),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
    getApiKeyByHash: (keyHash) => get<ApiKeyRecord>(keys.apiKey(keyHash)),
    async revokeApiKey(tenantId, keyId, at) {
      const byId = keys.apiKeyById(tenantId, keyId);
      const { Items } = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
          ExpressionAttributeValues: { ':pk': byId.gsi1pk, ':sk': byId.gsi1sk },
        }),
      );
      const found = Items?.[0] ? fromItem<ApiKeyRecord>(Items[0]) : undefined;
      if (!found) throw new NotFoundError('No such API key in this tenant.');
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.apiKey(found.keyHash),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
            UpdateExpression: 'SET revokedAt = :at',
            ExpressionAttributeValues: { ':at': at },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return fromItem<ApiKeyRecord>(Attributes ?? {});
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException)
          throw new ConflictError('The API key is already revoked.');
        throw error;
      }
    },

    listApiKeys: (tenantId, agentId) => {
      const { gsi1pk, gsi1sk: prefix } = keys.apiKeyById(tenantId, '');
      return queryAll<ApiKeyRecord>({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
        FilterExpression: 'agentId = :agentId',
        ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': prefix, ':agentId': agentId },
      });
    },
    async touchApiKey(keyHash, at) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.apiKey(keyHash),
            // Never moves back: two processes may record uses out of order.
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :at)',
            UpdateExpression: 'SET lastUsedAt = :at',
            ExpressionAttributeValues: { ':at': at },
          }),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return;
        throw error;
      }
    },

    async getTenantAndAgent(tenantId, agentId) {
      const tenantKey = keys.tenant(tenantId);
      const agentKey = keys.agent(tenantId, agentId);
      const { Responses, UnprocessedKeys } = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: [tenantKey, agentKey] } } }),
      );
      let items = Responses?.[tableName] ?? [];
      // BatchGet may hand back keys it did not get to; fetch those one by one rather than fail.
      const unprocessed = UnprocessedKeys?.[tableName]?.Keys ?? [];
      for (const key of unprocessed) {
        const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key }));
        if (Item) items = [...items, Item];
      }
      const tenantItem = items.find((item) => item.sk === tenantKey.sk);
      const agentItem = items.find((item) => item.sk === agentKey.sk);
      return {
        ...(tenantItem && { tenant: fromItem<Tenant>(tenantItem) }),
        ...(agentItem && { agent: fromItem<Agent>(agentItem) }),
      };
    },

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
      const lookUp = await get<AccountNetworkUser>(
        keys.accountNetworkUser(tenantId, workspaceId, platform, networkUserId),
        { consistent: true },
      );
      if (!lookUp) return undefined;
      return get<Account>(keys.account(tenantId, workspaceId, lookUp.accountId), { consistent: true });
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
      get<Account>(keys.account(tenantId, workspaceId, accountId)),
    listAccounts: (tenantId, workspaceId, page, filter) =>
      queryPrefix<Account>(
        keys.workspacePartition(tenantId, workspaceId),
        keys.accountPrefix,
        page,
        filter?.platform ? { platform: filter.platform } : undefined,
      ),
  };
}
