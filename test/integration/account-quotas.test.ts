import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDynamoAccountQuotas } from '../../shared/adapters/dynamodb/account-quotas.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { localTableNames } from '../../shared/adapters/dynamodb/tables.js';
import type { AccountQuotas } from '../../shared/ports/account-quotas.js';

describe('daily account quotas on DynamoDB Local', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  let quotas: AccountQuotas;

  beforeAll(async () => {
    const names = localTableNames(`q${Math.random().toString(36).slice(2, 8)}-`);
    await ensureTables(client, names);
    quotas = makeDynamoAccountQuotas(makeDocumentClient(client), names.rateLimits);
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
});
