import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import { makeDynamoOAuthStateStore } from '../../shared/adapters/dynamodb/oauth-state-store.js';
import { localTableNames } from '../../shared/adapters/dynamodb/tables.js';
import type { OAuthStateStore, PendingConnect } from '../../shared/ports/oauth-state-store.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

function pending(overrides: Partial<PendingConnect> = {}): PendingConnect {
  return {
    stateHash: Math.random().toString(16).slice(2).padEnd(64, '0'),
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    agentId: 'agt_1',
    platform: 'linkedin',
    redirectUri: 'https://app.example.com/done',
    sealedVerifier: 'v1.a.b.c',
    createdAt: new Date(NOW).toISOString(),
    expiresAt: new Date(NOW + 600_000).toISOString(),
    ...overrides,
  };
}

describe('OAuth state store on DynamoDB Local', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  const db = makeDocumentClient(client);
  let tableName = '';
  let store: OAuthStateStore;

  beforeAll(async () => {
    const names = localTableNames(`o${Math.random().toString(36).slice(2, 8)}-`);
    await ensureTables(client, names);
    tableName = names.main;
    store = makeDynamoOAuthStateStore(db, tableName);
  });
  afterAll(() => client.destroy());

  it('gives a pending connect back once, as it was written, and deletes it', async () => {
    // Prepare
    const written = pending();
    await store.put(written);

    // Act
    const first = await store.take(written.stateHash, NOW);
    const second = await store.take(written.stateHash, NOW);

    // Assess
    expect(first).toEqual(written);
    expect(second).toBeUndefined();
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: keys.oauthState(written.stateHash) }),
    );
    expect(Item).toBeUndefined();
  });

  it('of ten callbacks racing with one state, exactly one gets it', async () => {
    const written = pending();
    await store.put(written);

    const taken = await Promise.all(Array.from({ length: 10 }, () => store.take(written.stateHash, NOW)));

    expect(taken.filter((one) => one !== undefined)).toHaveLength(1);
  });

  it('is kept with a TTL in epoch seconds, and refused at its expiry even before TTL removes it', async () => {
    // Prepare
    const written = pending();
    await store.put(written);
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: keys.oauthState(written.stateHash) }),
    );

    // Act
    const late = await store.take(written.stateHash, Date.parse(written.expiresAt));

    // Assess
    expect(Item?.expiresAt).toBe(Math.ceil(Date.parse(written.expiresAt) / 1000));
    expect(Item?.entity).toBe('oauthState');
    expect(late).toBeUndefined();
  });

  it('never replaces a pending connect', async () => {
    const written = pending();
    await store.put(written);
    await expect(store.put({ ...written, agentId: 'agt_other' })).rejects.toThrow();
    expect((await store.take(written.stateHash, NOW))?.agentId).toBe('agt_1');
  });
});
