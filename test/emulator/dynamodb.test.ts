import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { createTableInput, ensureTable, ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { makeDynamoEventFeed } from '../../shared/adapters/dynamodb/event-feed.js';
import { makeDynamoOAuthStateStore } from '../../shared/adapters/dynamodb/oauth-state-store.js';
import { makeDynamoPostStore } from '../../shared/adapters/dynamodb/post-store.js';
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
import type { IdempotencyRecord } from '../../shared/domain/idempotency.js';
import { newId } from '../../shared/domain/ids.js';
import type { Post } from '../../shared/domain/posts.js';
import { limitFor } from '../../shared/domain/rate-limit-policy.js';
import { fixedClock } from '../../shared/ports/clock.js';
import { IdempotencyRace } from '../../shared/ports/post-store.js';
import { makeAdmin } from '../../shared/services/admin.js';
import { clientConfig, emulator, uniqueName } from './support.js';

// 20 s into a minute: the rate-limit window cannot roll over under the test.
const START = Date.UTC(2026, 10, 22, 12, 0, 20);
const AT = new Date(START).toISOString();

const post = (tenantId: string, workspaceId: string, accountId: string): Post => ({
  postId: newId('post'),
  tenantId,
  workspaceId,
  accountId,
  platform: 'twitter',
  postType: 'text',
  status: 'scheduled',
  content: 'hello from the emulator',
  media: [],
  scheduledAt: new Date(START + 3_600_000).toISOString(),
  createdAt: AT,
  updatedAt: AT,
  attempts: 0,
  createdBy: 'agt_emu',
  version: 1,
});

const idempotency = (tenantId: string, key: string): IdempotencyRecord => ({
  tenantId,
  key,
  fingerprint: 'f'.repeat(64),
  status: 201,
  body: { ok: true },
  createdAt: AT,
  expiresAt: Math.floor(START / 1000) + 86_400,
});

describe('DynamoDB adapters against the emulator', () => {
  let client: DynamoDBClient;
  let db: DynamoDBDocumentClient;
  let tables: TableNames;
  const extraTables: string[] = [];

  beforeAll(async () => {
    const { endpoint, region } = emulator();
    client = makeDynamoClient({ region, endpoint });
    db = makeDocumentClient(client);
    tables = localTableNames(`${uniqueName('emu')}-`);
    await ensureTables(client, tables);
  });

  afterAll(async () => {
    for (const name of [...(tables ? Object.values(tables) : []), ...extraTables]) {
      await client.send(new DeleteTableCommand({ TableName: name }));
    }
    client?.destroy();
  });

  it('ensureTables makes every table as the stack defines it: keys, indexes, on-demand, stream and TTL', async () => {
    for (const definition of TABLES) {
      // Act
      const name = tables[definition.name];
      const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
      const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));

      // Assess: the same input CDK's tables are built from (infra/constructs/tables.ts reads TABLES too).
      const expected = createTableInput(definition, name);
      expect(Table?.KeySchema).toEqual(expected.KeySchema);
      expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
      expect(
        (Table?.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index.KeySchema]),
      ).toEqual((expected.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index.KeySchema]));
      expect(Table?.StreamSpecification?.StreamEnabled ?? false).toBe(definition.stream !== undefined);
      expect(TimeToLiveDescription).toMatchObject({
        TimeToLiveStatus: 'ENABLED',
        AttributeName: definition.timeToLiveAttribute,
      });
    }
  });

  it('ensureTable on a table made before an index existed adds the index in place (UpdateTable)', async () => {
    // Prepare: the main table as an older version made it, without gsi2.
    const name = uniqueName('emu-older-main');
    extraTables.push(name);
    const older = { ...MAIN_TABLE, globalSecondaryIndexes: MAIN_TABLE.globalSecondaryIndexes.slice(0, 1) };
    await client.send(new CreateTableCommand(createTableInput(older, name)));

    // Act
    await ensureTable(client, MAIN_TABLE, name);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));

    // Assess
    expect((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort()).toEqual(
      MAIN_TABLE.globalSecondaryIndexes.map((index) => index.indexName).sort(),
    );
  });

  it('lists posts by externalId through the sparse third index: exactly, by prefix, page by page', async () => {
    // Prepare: ids that share prefixes; one without an externalId; another workspace's.
    const store = makeDynamoPostStore(db, tables);
    const made = new Map<string, string>();
    for (const externalId of ['cal/b', 'cal/a', 'cal/a#2', 'calx/a']) {
      const one = { ...post('ten_ext', 'wks_ext', 'acc_ext'), externalId };
      await store.create(one);
      made.set(externalId, one.postId);
    }
    await store.create(post('ten_ext', 'wks_ext', 'acc_ext'));
    await store.create({ ...post('ten_ext', 'wks_other', 'acc_ext'), externalId: 'cal/a' });

    // Act
    const exact = await store.list('ten_ext', 'wks_ext', { externalId: 'cal/a', limit: 10 });
    const first = await store.list('ten_ext', 'wks_ext', { externalIdPrefix: 'cal/', limit: 2 });
    const second = await store.list('ten_ext', 'wks_ext', {
      externalIdPrefix: 'cal/',
      limit: 2,
      ...(first.nextCursor && { cursor: first.nextCursor }),
    });

    // Assess
    expect(exact.items.map((item) => item.postId)).toEqual([made.get('cal/a')]);
    expect([...first.items, ...second.items].map((item) => item.externalId)).toEqual([
      'cal/a',
      'cal/a#2',
      'cal/b',
    ]);
    expect(second.nextCursor).toBeUndefined();
  });

  it('the tenancy store keeps what the admin bootstrap writes and reads it back (Put, BatchGet, Query)', async () => {
    // Prepare
    const tenancy = makeDynamoTenancyStore(db, tables.main);
    const admin = makeAdmin({ tenancy, clock: fixedClock(START) });

    // Act
    const tenant = await admin.bootstrap({ name: 'Emulator' });
    const record = await tenancy.getApiKeyByHash(hashApiKey(tenant.apiKey));
    const both = await tenancy.getTenantAndAgent(tenant.tenantId, tenant.agentId);
    const workspaces = await tenancy.listWorkspaces(tenant.tenantId, { limit: 10 });
    const accounts = await tenancy.listAccounts(tenant.tenantId, tenant.workspaceId, { limit: 10 });

    // Assess
    expect(record).toMatchObject({ tenantId: tenant.tenantId, agentId: tenant.agentId });
    expect(both.tenant?.name).toBe('Emulator');
    expect(both.agent?.agentId).toBe(tenant.agentId);
    expect(workspaces.items.map((workspace) => workspace.workspaceId)).toEqual([tenant.workspaceId]);
    expect(accounts.items.map((account) => account.accountId).sort()).toEqual(
      Object.values(tenant.accounts).sort(),
    );
  });

  it('a conditional UpdateItem: revoking a key twice is a conflict the second time', async () => {
    // Prepare
    const tenancy = makeDynamoTenancyStore(db, tables.main);
    const tenant = await makeAdmin({ tenancy, clock: fixedClock(START) }).bootstrap({ name: 'Revoked' });
    const record = await tenancy.getApiKeyByHash(hashApiKey(tenant.apiKey));
    if (!record) throw new Error('the bootstrap key was not stored');

    // Act
    const revoked = await tenancy.revokeApiKey(tenant.tenantId, record.keyId, AT);
    const again = tenancy.revokeApiKey(tenant.tenantId, record.keyId, AT);

    // Assess
    expect(revoked.revokedAt).toBe(AT);
    await expect(again).rejects.toBeInstanceOf(ConflictError);
  });

  it('a post and its idempotency record are one transaction: a second post with the key is cancelled whole', async () => {
    // Prepare
    const store = makeDynamoPostStore(db, tables);
    const first = post('ten_tx', 'wks_tx', 'acc_tx');
    const second = post('ten_tx', 'wks_tx', 'acc_tx');

    // Act
    await store.create(first, idempotency('ten_tx', 'key-1'));
    const racing = store.create(second, idempotency('ten_tx', 'key-1'));

    // Assess: TransactionCanceledException (ConditionalCheckFailed on the record) → IdempotencyRace.
    await expect(racing).rejects.toBeInstanceOf(IdempotencyRace);
    expect(await store.get('ten_tx', 'wks_tx', first.postId)).toMatchObject({ postId: first.postId });
    expect(await store.get('ten_tx', 'wks_tx', second.postId)).toBeUndefined();
    expect(await store.getIdempotencyRecord('ten_tx', 'key-1', Math.floor(START / 1000))).toMatchObject({
      status: 201,
    });
  });

  it('the event feed writes a batch of events in one BatchWriteItem and reads them back in order', async () => {
    // Prepare
    const feed = makeDynamoEventFeed(db, tables.main, fixedClock(START));
    const events = [0, 1, 2].map((i) => ({
      id: newId('event', START + i),
      type: 'post.published' as const,
      tenantId: 'ten_feed',
      workspaceId: 'wks_feed',
      createdAt: new Date(START + i).toISOString(),
      data: { postId: `pst_${i}` },
    }));

    // Act
    await feed.appendEvents(events);
    await feed.appendEvents(events.slice(0, 1)); // redelivered: still one copy
    const read = await feed.readEvents('ten_feed', 'wks_feed', { limit: 10 });

    // Assess
    expect(read.items.map((event) => event.id).sort()).toEqual(events.map((event) => event.id).sort());
  });

  it('an OAuth state is taken once: a conditional DeleteItem returning the old item answers the first taker only', async () => {
    // Prepare
    const states = makeDynamoOAuthStateStore(db, tables.main);
    const stateHash = 'a'.repeat(64);
    await states.put({
      stateHash,
      tenantId: 'ten_oauth',
      workspaceId: 'wks_oauth',
      agentId: 'agt_oauth',
      platform: 'linkedin',
      createdAt: AT,
      expiresAt: new Date(START + 600_000).toISOString(),
    });

    // Act
    // One after the other, not raced: see the rate limiter's test for why.
    const taken = [await states.take(stateHash, START), await states.take(stateHash, START)];

    // Assess
    expect(taken.filter((pending) => pending !== undefined).map((pending) => pending?.tenantId)).toEqual([
      'ten_oauth',
    ]);
  });

  it('the rate limiter lets exactly the limit through, then refuses with the time to wait', async () => {
    // Prepare
    const limiter = makeDynamoRateLimiter(db, tables.rateLimits, fixedClock(START));
    const limit = limitFor('media_uploads', 'free');

    // Act: one after the other. moto's server handles requests on threads and does not serialize
    // conditional writes to one item as DynamoDB does, so a race can let more through than the
    // limit there (seen in a run of the whole suite); the race itself is tested against DynamoDB
    // Local (test/integration/rate-limit.test.ts). Here: the conditional UpdateItem's two answers.
    const decisions = [];
    for (let i = 0; i < limit + 5; i++)
      decisions.push(await limiter.consume('ten_emu', 'media_uploads', 'free'));

    // Assess
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(limit);
    expect(decisions.find((decision) => !decision.allowed)?.retryAfterSeconds).toBe(40);
  });

  it("the main table's stream carries each write with its new and old images (what the outbox reads)", async () => {
    // Prepare
    const streams = new DynamoDBStreamsClient(clientConfig());
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tables.main }));
    const store = makeDynamoPostStore(db, tables);
    const written = post('ten_stream', 'wks_stream', 'acc_stream');
    await store.create(written);
    await store.update({ ...written, status: 'queued', version: 2 }, 1);

    // Act
    const { StreamDescription } = await streams.send(
      new DescribeStreamCommand({ StreamArn: Table?.LatestStreamArn }),
    );
    const records: _Record[] = [];
    for (const shard of StreamDescription?.Shards ?? []) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: Table?.LatestStreamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      const { Records } = await streams.send(new GetRecordsCommand({ ShardIterator, Limit: 1000 }));
      records.push(...(Records ?? []));
    }
    streams.destroy();

    // Assess
    const ofPost = records.filter((record) => record.dynamodb?.NewImage?.postId?.S === written.postId);
    expect(StreamDescription?.StreamViewType).toBe('NEW_AND_OLD_IMAGES');
    expect(ofPost.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY']);
    expect(ofPost[1]?.dynamodb?.OldImage?.status?.S).toBe('scheduled');
    expect(ofPost[1]?.dynamodb?.NewImage?.status?.S).toBe('queued');
  });
});
