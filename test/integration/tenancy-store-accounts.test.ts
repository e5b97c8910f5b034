import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import { localTableNames } from '../../shared/adapters/dynamodb/tables.js';
import { makeDynamoTenancyStore } from '../../shared/adapters/dynamodb/tenancy-store.js';
import { ConflictError, NotFoundError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import type { Account } from '../../shared/domain/tenancy.js';
import type { TenancyStore } from '../../shared/ports/tenancy-store.js';
import { InMemoryTenancyStore } from '../unit/support/in-memory-tenancy-store.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

function newScope() {
  return { tenantId: newId('tenant'), workspaceId: newId('workspace') };
}

function realAccount(
  scope: { tenantId: string; workspaceId: string },
  overrides: Partial<Account> = {},
): Account {
  return {
    accountId: newId('account', NOW),
    ...scope,
    platform: 'twitter',
    displayName: 'Ada',
    handle: '@ada',
    status: 'connected',
    sandbox: false,
    connectedAt: new Date(NOW).toISOString(),
    createdAt: new Date(NOW).toISOString(),
    networkUserId: `user-${Math.random().toString(36).slice(2)}`,
    scopes: ['tweet.write'],
    tokenExpiresAt: '2030-01-01T02:00:00.000Z',
    encryptedTokens: 'v1.sealed-tokens',
    tokensVersion: 1,
    ...overrides,
  };
}

async function allExpiring(store: TenancyStore, before: string, limit: number): Promise<Account[]> {
  const seen: Account[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listAccountsExpiringBefore(before, { limit, ...(cursor && { cursor }) });
    seen.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

/** The same contract for the DynamoDB adapter and the in-memory one the unit tests use. */
function accountStoreContract(name: string, makeStore: () => TenancyStore) {
  describe(`account tokens and look-ups: ${name}`, () => {
    it('finds the account of a network user in its workspace only, connected or not', async () => {
      // Prepare
      const store = makeStore();
      const scope = newScope();
      const account = realAccount(scope);
      await store.putAccount(account);
      const networkUserId = account.networkUserId ?? '';

      // Act
      const found = await store.findAccountByNetworkUser(
        scope.tenantId,
        scope.workspaceId,
        'twitter',
        networkUserId,
      );
      await store.markAccountDisconnected(scope.tenantId, scope.workspaceId, account.accountId, {
        at: '2030-01-01T01:00:00.000Z',
        reason: 'disconnected_by_user',
      });
      const afterDisconnect = await store.findAccountByNetworkUser(
        scope.tenantId,
        scope.workspaceId,
        'twitter',
        networkUserId,
      );

      // Assess
      expect(found?.accountId).toBe(account.accountId);
      expect(afterDisconnect?.accountId).toBe(account.accountId);
      expect(afterDisconnect?.status).toBe('disconnected');
      const other = newScope();
      await expect(
        store.findAccountByNetworkUser(other.tenantId, scope.workspaceId, 'twitter', networkUserId),
      ).resolves.toBeUndefined();
      await expect(
        store.findAccountByNetworkUser(scope.tenantId, other.workspaceId, 'twitter', networkUserId),
      ).resolves.toBeUndefined();
      await expect(
        store.findAccountByNetworkUser(scope.tenantId, scope.workspaceId, 'linkedin', networkUserId),
      ).resolves.toBeUndefined();
    });

    it('refuses a second account for a network user the workspace already has', async () => {
      // Prepare
      const store = makeStore();
      const scope = newScope();
      const first = realAccount(scope);
      await store.putAccount(first);

      // Act
      const second = store.putAccount(realAccount(scope, { networkUserId: first.networkUserId }));
      const again = store.putAccount({ ...first, displayName: 'Ada L.' });

      // Assess
      await expect(second).rejects.toBeInstanceOf(ConflictError);
      await expect(again).resolves.toBeUndefined();
      const stored = await store.getAccount(scope.tenantId, scope.workspaceId, first.accountId);
      expect(stored?.displayName).toBe('Ada L.');
    });

    it('replaces tokens only over the version it read, and bumps it', async () => {
      // Prepare
      const store = makeStore();
      const scope = newScope();
      const account = realAccount(scope, { tokensVersion: 3, refreshExpiresAt: '2030-06-01T00:00:00.000Z' });
      await store.putAccount(account);
      const change = {
        encryptedTokens: 'v1.rotated',
        tokenExpiresAt: '2030-01-01T04:00:00.000Z',
        scopes: ['tweet.write', 'offline.access'],
      };

      // Act
      const stale = await store.replaceAccountTokens(scope.tenantId, scope.workspaceId, account.accountId, {
        ...change,
        expectedVersion: 2,
      });
      const current = await store.replaceAccountTokens(scope.tenantId, scope.workspaceId, account.accountId, {
        ...change,
        expectedVersion: 3,
      });
      const replayed = await store.replaceAccountTokens(
        scope.tenantId,
        scope.workspaceId,
        account.accountId,
        {
          ...change,
          encryptedTokens: 'v1.lost-the-race',
          expectedVersion: 3,
        },
      );

      // Assess
      expect([stale, current, replayed]).toEqual([false, true, false]);
      const stored = await store.getAccount(scope.tenantId, scope.workspaceId, account.accountId);
      expect(stored).toMatchObject({
        encryptedTokens: 'v1.rotated',
        tokensVersion: 4,
        tokenExpiresAt: '2030-01-01T04:00:00.000Z',
        scopes: ['tweet.write', 'offline.access'],
      });
      // The change said nothing of the refresh token's expiry: the old one no longer applies.
      expect(stored).not.toHaveProperty('refreshExpiresAt');
    });

    it('counts an account without a token version as version 0', async () => {
      // Prepare
      const store = makeStore();
      const scope = newScope();
      const { tokensVersion: _none, ...unversioned } = realAccount(scope);
      await store.putAccount(unversioned);

      // Act
      const written = await store.replaceAccountTokens(
        scope.tenantId,
        scope.workspaceId,
        unversioned.accountId,
        {
          expectedVersion: 0,
          encryptedTokens: 'v1.first',
          scopes: [],
        },
      );

      // Assess
      expect(written).toBe(true);
      const stored = await store.getAccount(scope.tenantId, scope.workspaceId, unversioned.accountId);
      expect(stored?.tokensVersion).toBe(1);
      expect(stored).not.toHaveProperty('tokenExpiresAt');
    });

    it('a disconnect removes the tokens and moves the version on, so a refresh in flight cannot write', async () => {
      // Prepare
      const store = makeStore();
      const scope = newScope();
      const account = realAccount(scope, { tokensVersion: 5 });
      await store.putAccount(account);

      // Act
      const first = await store.markAccountDisconnected(
        scope.tenantId,
        scope.workspaceId,
        account.accountId,
        {
          at: '2030-01-01T01:00:00.000Z',
          reason: 'refresh_refused',
        },
      );
      const second = await store.markAccountDisconnected(
        scope.tenantId,
        scope.workspaceId,
        account.accountId,
        {
          at: '2030-01-01T01:05:00.000Z',
          reason: 'disconnected_by_user',
        },
      );
      const refresh = await store.replaceAccountTokens(scope.tenantId, scope.workspaceId, account.accountId, {
        expectedVersion: 5,
        encryptedTokens: 'v1.too-late',
        scopes: [],
      });

      // Assess
      expect([first, second, refresh]).toEqual([true, false, false]);
      const stored = await store.getAccount(scope.tenantId, scope.workspaceId, account.accountId);
      expect(stored).toMatchObject({
        status: 'disconnected',
        disconnectedAt: '2030-01-01T01:00:00.000Z',
        disconnectReason: 'refresh_refused',
        tokensVersion: 6,
      });
      expect(stored).not.toHaveProperty('encryptedTokens');
      expect(stored).not.toHaveProperty('tokenExpiresAt');
    });

    it("replaces a tenant's or a workspace's redirect URIs; an empty list removes them", async () => {
      // Prepare
      const store = makeStore();
      const scope = newScope();
      await store.putTenant({
        tenantId: scope.tenantId,
        name: 'T',
        planTier: 'free',
        planStatus: 'active',
        createdAt: new Date(NOW).toISOString(),
      });
      await store.putWorkspace({ ...scope, name: 'W', createdAt: new Date(NOW).toISOString() });

      // Act
      await store.setOAuthRedirectUris(scope.tenantId, undefined, ['https://a.example/cb']);
      await store.setOAuthRedirectUris(scope.tenantId, scope.workspaceId, ['https://b.example/cb']);
      await store.setOAuthRedirectUris(scope.tenantId, scope.workspaceId, []);

      // Assess
      expect((await store.getTenant(scope.tenantId))?.oauthRedirectUris).toEqual(['https://a.example/cb']);
      expect(await store.getWorkspace(scope.tenantId, scope.workspaceId)).not.toHaveProperty(
        'oauthRedirectUris',
      );
      await expect(store.setOAuthRedirectUris(newScope().tenantId, undefined, [])).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(
        store.setOAuthRedirectUris(scope.tenantId, newScope().workspaceId, ['https://c.example/cb']),
      ).rejects.toBeInstanceOf(NotFoundError);
    });

    it('lists connected accounts whose token expires before a time, across tenants, soonest first', async () => {
      // Prepare: a year no other test uses, so the index's one partition shows only these.
      const store = makeStore();
      const at = (hour: number) => `2001-01-01T${String(hour).padStart(2, '0')}:00:00.000Z`;
      const [a, b, c] = [newScope(), newScope(), newScope()];
      const soon = realAccount(a, { tokenExpiresAt: at(3) });
      const sooner = realAccount(b, { tokenExpiresAt: at(1) });
      const later = realAccount(c, { tokenExpiresAt: at(2) });
      const tooLate = realAccount(a, { tokenExpiresAt: at(9) });
      const sandbox = realAccount(b, { tokenExpiresAt: at(1), sandbox: true });
      const disconnected = realAccount(c, { tokenExpiresAt: at(1) });
      const noTokens = realAccount(c, { tokenExpiresAt: at(1), encryptedTokens: undefined });
      const rotated = realAccount(a, { tokenExpiresAt: at(10) });
      for (const account of [soon, sooner, later, tooLate, sandbox, disconnected, noTokens, rotated])
        await store.putAccount(account);
      await store.markAccountDisconnected(c.tenantId, c.workspaceId, disconnected.accountId, {
        at: at(0),
        reason: 'refresh_refused',
      });
      await store.replaceAccountTokens(a.tenantId, a.workspaceId, rotated.accountId, {
        expectedVersion: 1,
        encryptedTokens: 'v1.new',
        tokenExpiresAt: '2001-01-01T02:30:00+00:00',
        scopes: [],
      });

      // Act
      const listed = await allExpiring(store, at(4), 2);

      // Assess
      expect(listed.map((account) => account.accountId)).toEqual([
        sooner.accountId,
        later.accountId,
        rotated.accountId,
        soon.accountId,
      ]);
      expect(listed[0]).toEqual(sooner);
    });
  });
}

describe('tenancy store accounts', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  const db = makeDocumentClient(client);
  let tableName = '';
  let dynamo: TenancyStore | undefined;

  beforeAll(async () => {
    const names = localTableNames(`a${Math.random().toString(36).slice(2, 8)}-`);
    await ensureTables(client, names);
    tableName = names.main;
    dynamo = makeDynamoTenancyStore(db, tableName);
  });
  afterAll(() => client.destroy());

  const dynamoStore = () => {
    if (!dynamo) throw new Error('The table is not ready.');
    return dynamo;
  };

  accountStoreContract('DynamoDB Local', dynamoStore);
  accountStoreContract('in memory', () => new InMemoryTenancyStore());

  it('keeps the look-up item and the expiry entry beside the account, and no account item elsewhere', async () => {
    // Prepare
    const store = dynamoStore();
    const scope = newScope();
    const account = realAccount(scope, { tokenExpiresAt: '2030-01-01T02:00:00Z' });

    // Act
    await store.putAccount(account);

    // Assess
    const lookUp = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.accountNetworkUser(
          scope.tenantId,
          scope.workspaceId,
          'twitter',
          account.networkUserId ?? '',
        ),
      }),
    );
    expect(lookUp.Item).toMatchObject({ entity: 'accountNetworkUser', accountId: account.accountId });
    const item = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.account(scope.tenantId, scope.workspaceId, account.accountId),
      }),
    );
    expect(item.Item).toMatchObject({
      gsi2pk: 'TOKENS#EXPIRE',
      gsi2sk: `2030-01-01T02:00:00.000Z#${account.accountId}`,
    });
    // The workspace's account list reads the ACCOUNT# prefix only: the look-up item is not an account.
    const listed = await store.listAccounts(scope.tenantId, scope.workspaceId, { limit: 10 });
    expect(listed.items.map((one) => one.accountId)).toEqual([account.accountId]);
    const { Items } = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.workspacePartition(scope.tenantId, scope.workspaceId) },
      }),
    );
    expect(Items?.map((one) => one.entity).sort()).toEqual(['account', 'accountNetworkUser']);
  });
});
