import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { makeDynamoRateLimiter } from '../../shared/adapters/dynamodb/rate-limiter.js';
import {
  localTableNames,
  MAIN_TABLE,
  TABLES,
  type TableNames,
} from '../../shared/adapters/dynamodb/tables.js';
import { makeDynamoTenancyStore } from '../../shared/adapters/dynamodb/tenancy-store.js';
import { hashApiKey } from '../../shared/domain/api-keys.js';
import { ConflictError } from '../../shared/domain/errors.js';
import { limitFor } from '../../shared/domain/rate-limit-policy.js';
import { fixedClock } from '../../shared/ports/clock.js';
import { makeAdmin } from '../../shared/services/admin.js';
import { dynamoConnection, uniqueName } from './support.js';

// 20 s into a minute: the rate-limit window cannot roll over under the test.
const START = Date.UTC(2026, 10, 22, 12, 0, 20);

describe('DynamoDB adapters against LocalStack', () => {
  let client: DynamoDBClient;
  let db: DynamoDBDocumentClient;
  let tables: TableNames;

  beforeAll(async () => {
    client = makeDynamoClient(dynamoConnection());
    db = makeDocumentClient(client);
    tables = localTableNames(`${uniqueName('ls')}-`);
    await ensureTables(client, tables);
  });

  afterAll(async () => {
    if (tables) {
      for (const definition of TABLES) {
        await client
          .send(new DeleteTableCommand({ TableName: tables[definition.name] }))
          .catch(() => undefined);
      }
    }
    client?.destroy();
  });

  it('ensureTables makes every table as defined: keys, indexes, stream and TTL', async () => {
    // Act
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tables.main }));
    const { TimeToLiveDescription } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: tables.main }),
    );

    // Assess
    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort()).toEqual(
      MAIN_TABLE.globalSecondaryIndexes.map((index) => index.indexName).sort(),
    );
    expect(Table?.StreamSpecification).toMatchObject({
      StreamEnabled: true,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    expect(TimeToLiveDescription?.AttributeName).toBe(MAIN_TABLE.timeToLiveAttribute);
  });

  it('ensureTables a second time leaves the existing tables as they are', async () => {
    await expect(ensureTables(client, tables)).resolves.toBeUndefined();
  });

  it('the tenancy store keeps what the admin bootstrap writes, and finds the key by its hash', async () => {
    // Prepare
    const tenancy = makeDynamoTenancyStore(db, tables.main);
    const admin = makeAdmin({ tenancy, clock: fixedClock(START) });

    // Act
    const tenant = await admin.bootstrap({ name: 'LocalStack' });
    const record = await tenancy.getApiKeyByHash(hashApiKey(tenant.apiKey));
    const both = await tenancy.getTenantAndAgent(tenant.tenantId, tenant.agentId);
    const workspaces = await tenancy.listWorkspaces(tenant.tenantId, { limit: 10 });
    const accounts = await tenancy.listAccounts(tenant.tenantId, tenant.workspaceId, { limit: 10 });

    // Assess
    expect(record).toMatchObject({ tenantId: tenant.tenantId, agentId: tenant.agentId });
    expect(both.tenant?.name).toBe('LocalStack');
    expect(both.agent?.agentId).toBe(tenant.agentId);
    expect(workspaces.items.map((workspace) => workspace.workspaceId)).toEqual([tenant.workspaceId]);
    expect(accounts.items.map((account) => account.accountId).sort()).toEqual(
      Object.values(tenant.accounts).sort(),
    );
  });

  it('revoking a key is a conditional write: the second revocation is a conflict', async () => {
    // Prepare
    const tenancy = makeDynamoTenancyStore(db, tables.main);
    const admin = makeAdmin({ tenancy, clock: fixedClock(START) });
    const tenant = await admin.bootstrap({ name: 'Revoked' });
    const record = await tenancy.getApiKeyByHash(hashApiKey(tenant.apiKey));
    if (!record) throw new Error('the bootstrap key was not stored');

    // Act
    const revoked = await tenancy.revokeApiKey(tenant.tenantId, record.keyId, new Date(START).toISOString());

    // Assess
    expect(revoked.revokedAt).toBe(new Date(START).toISOString());
    await expect(
      tenancy.revokeApiKey(tenant.tenantId, record.keyId, new Date(START).toISOString()),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('the rate limiter lets exactly the limit through when more requests race for it', async () => {
    // Prepare
    const limiter = makeDynamoRateLimiter(db, tables.rateLimits, fixedClock(START));
    const limit = limitFor('media_uploads', 'free');
    const attempts = limit + 10;

    // Act
    const decisions = await Promise.all(
      Array.from({ length: attempts }, () => limiter.consume('ten_localstack', 'media_uploads', 'free')),
    );

    // Assess
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(limit);
    expect(decisions.filter((decision) => !decision.allowed)).toHaveLength(attempts - limit);
    expect(new Set(decisions.filter((d) => d.allowed).map((d) => d.remaining)).size).toBe(limit);
    expect(decisions.find((decision) => !decision.allowed)?.retryAfterSeconds).toBe(40);
  });
});
