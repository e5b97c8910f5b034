import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDynamoAccountQuotas } from '../../shared/adapters/dynamodb/account-quotas.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { localTableNames } from '../../shared/adapters/dynamodb/tables.js';
import { withQuotaOverrides } from '../../shared/domain/account-quotas.js';
import type { AccountQuotas } from '../../shared/ports/account-quotas.js';
import { fixedClock } from '../../shared/ports/clock.js';
import { makeReserveQuota } from '../../shared/services/delivery/reserve-quota.js';
import { aPost } from '../unit/delivery/support.js';
import { anAccount } from '../unit/support/builders.js';
import { InMemoryPostStore } from '../unit/support/in-memory-post-store.js';
import { InMemoryTenancyStore } from '../unit/support/in-memory-tenancy-store.js';

describe('daily account quotas on DynamoDB Local', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  const documents = makeDocumentClient(client);
  let quotas: AccountQuotas;
  let table: string;

  beforeAll(async () => {
    const names = localTableNames(`q${Math.random().toString(36).slice(2, 8)}-`);
    await ensureTables(client, names);
    table = names.rateLimits;
    quotas = makeDynamoAccountQuotas(documents, table);
  });
  afterAll(() => client.destroy());

  it('N concurrent reservations against a ceiling of L: exactly L succeed, and the count is L', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, () => quotas.reserve('acc_concurrent', '2030-01-01', 1, 25)),
    );
    expect(results.filter(Boolean)).toHaveLength(25);
    expect(await quotas.used('acc_concurrent', '2030-01-01')).toBe(25);
  });

  it('counts in units: six 1,600-unit uploads fit in 10,000, a seventh does not', async () => {
    for (let i = 0; i < 6; i++)
      expect(await quotas.reserve('acc_video', '2030-01-01', 1600, 10_000)).toBe(true);
    expect(await quotas.reserve('acc_video', '2030-01-01', 1600, 10_000)).toBe(false);
    expect(await quotas.used('acc_video', '2030-01-01')).toBe(9600);
  });

  it('release gives a reservation back, never below zero; days are counted apart', async () => {
    await quotas.reserve('acc_release', '2030-01-01', 1, 5);
    await quotas.release('acc_release', '2030-01-01', 1);
    await quotas.release('acc_release', '2030-01-01', 1);
    expect(await quotas.used('acc_release', '2030-01-01')).toBe(0);
    expect(await quotas.used('acc_release', '2030-01-02')).toBe(0);
  });

  it('YouTube uploads from 12 channels at once share the project: 6 fit in 10,000 units, the others hold nothing', async () => {
    // Prepare: 12 connected channels of one tenant, each with a video to post on 2030-01-02.
    const tenancy = new InMemoryTenancyStore();
    const posts = new InMemoryPostStore({ tenancy });
    const accountIds = Array.from(
      { length: 12 },
      (_, i) => `acc_01JD00000000000000000000${String(i).padStart(2, '0')}`,
    );
    for (const accountId of accountIds)
      await tenancy.putAccount(anAccount({ accountId, platform: 'youtube' }));
    const reserve = makeReserveQuota({
      posts,
      quotas,
      clock: fixedClock(Date.parse('2030-01-02T12:00:00Z')),
      dailyQuotas: withQuotaOverrides({ youtube: { limit: 10_000, costPerPost: 1600 } }),
    });

    // Act
    const results = await Promise.all(
      accountIds.map((accountId) => reserve(aPost({ accountId, platform: 'youtube', postType: 'video' }))),
    );

    // Assess: one counter item for the project, never past its ceiling; refused channels gave theirs back.
    const refused = results.flatMap((result) => ('settle' in result ? [result.settle] : []));
    expect(results.length - refused.length).toBe(6);
    for (const verdict of refused)
      expect(verdict).toMatchObject({
        kind: 'fail',
        error: { code: 'PROJECT_QUOTA_EXCEEDED', retryable: true },
      });
    const { Item } = await documents.send(
      new GetCommand({ TableName: table, Key: { pk: 'QUOTA#youtube-project#2030-01-02' } }),
    );
    expect(Item?.used).toBe(9600);
    const perAccount = await Promise.all(accountIds.map((accountId) => quotas.used(accountId, '2030-01-02')));
    expect(perAccount.reduce((sum, used) => sum + used, 0)).toBe(9600);

    // Releasing every reservation empties both counters.
    for (const result of results) if ('proceed' in result) await result.proceed.release();
    expect(await quotas.used('youtube-project', '2030-01-02')).toBe(0);
    const after = await Promise.all(accountIds.map((accountId) => quotas.used(accountId, '2030-01-02')));
    expect(after.every((used) => used === 0)).toBe(true);
  });

  it('keeps a network’s quota reading per account, the later of two readings, with a TTL', async () => {
    const older = { used: 3, total: 50, windowSeconds: 86_400, readAt: '2030-01-03T10:00:00.000Z' };
    const newer = { ...older, used: 4, readAt: '2030-01-03T10:00:05.000Z' };
    expect(await quotas.networkReading('acc_reading')).toBeUndefined();

    await quotas.recordNetworkReading('acc_reading', newer);
    await quotas.recordNetworkReading('acc_reading', older);

    expect(await quotas.networkReading('acc_reading')).toEqual(newer);
    const { Item } = await documents.send(
      new GetCommand({ TableName: table, Key: { pk: 'NETQUOTA#acc_reading' } }),
    );
    expect(Item?.expiresAt).toBe(Date.parse(newer.readAt) / 1000 + 2 * 24 * 3600);
  });
});
