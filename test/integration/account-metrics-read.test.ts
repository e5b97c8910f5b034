import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { Account } from '../../shared/domain/tenancy.js';
import { accountMetricsScopesOf, networkMetricsOf } from '../../shared/networks/network-metrics.js';
import { fixedClock } from '../../shared/ports/clock.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { aCollectedNetwork } from '../support/metrics-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const NOW = Date.parse('2030-03-01T12:00:00.000Z');
const TOMORROW = '2030-03-02T00:00:00.000Z';

describe('GET /v1/workspaces/{workspace_id}/accounts/{account_id}/metrics over HTTP', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let n = 0;
  const read = (accountId: string, path = 'metrics') =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}${path === '' ? '' : `/${path}`}`, {
      apiKey: tenant.apiKey,
    });
  /** A connected real-network account of the workspace on a network whose metrics are collected. */
  const aRealAccount = async (overrides: Partial<Account> = {}): Promise<Account> => {
    n += 1;
    const platform = aCollectedNetwork();
    const account: Account = {
      accountId: newId('account', NOW + n),
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      platform,
      displayName: `Brand ${n}`,
      handle: `brand${n}`,
      status: 'connected',
      sandbox: false,
      connectedAt: '2030-01-01T00:00:00.000Z',
      createdAt: '2030-01-01T00:00:00.000Z',
      networkUserId: `user-${n}`,
      scopes: [...(networkMetricsOf(platform)?.scopes ?? [])],
      ...overrides,
    };
    await host.deps.tenancy.putAccount(account);
    return account;
  };

  beforeAll(async () => {
    host = await startTestHost({ clock: fixedClock(NOW) });
    tenant = await host.admin.bootstrap({ name: 'Account metrics' });
  });
  afterAll(() => host.stop());

  it('answers the daily readings, the latest first-class, and the next sweep', async () => {
    const account = await aRealAccount();
    const readings = [
      { collectedAt: '2030-02-28T03:00:00.000Z', metrics: { followers: 120, posts: 4 } },
      { collectedAt: '2030-03-01T03:00:00.000Z', metrics: { followers: 131, posts: 5 } },
    ];
    await host.deps.tenancy.recordAccountMetrics(tenant.tenantId, tenant.workspaceId, account.accountId, {
      readings,
    });

    const response = await read(account.accountId);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      accountId: account.accountId,
      platform: account.platform,
      collectedAt: '2030-03-01T03:00:00.000Z',
      metrics: { followers: 131, posts: 5 },
      history: readings,
      nextCollectionAt: TOMORROW,
      problem: null,
    });
  });

  it('nothing read yet: 409 metrics_not_collected_yet with the next sweep', async () => {
    const account = await aRealAccount();

    const response = await read(account.accountId);

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'metrics_not_collected_yet',
      nextCollectionAt: TOMORROW,
    });
  });

  it("an account connected before the metrics scopes: the account read names them all, its metrics answer 409 metrics_missing_scopes naming those the account's own numbers need", async () => {
    const account = await aRealAccount({ scopes: ['publish-only'] });
    const needed = networkMetricsOf(account.platform)?.scopes ?? [];
    const accountNeeds = accountMetricsScopesOf(account.platform);

    const metrics = await read(account.accountId);
    const accountRead = (await (await read(account.accountId, '')).json()) as Record<string, unknown>;

    expect(accountNeeds.length).toBeGreaterThan(0);
    expect(metrics.status).toBe(409);
    expect(await metrics.json()).toMatchObject({
      error: 'metrics_missing_scopes',
      missingScopes: accountNeeds,
    });
    expect(accountRead.missingMetricsScopes).toEqual(needed);
  });

  it('an account with every scope has no missingMetricsScopes member; a sandbox account not read yet: 409 metrics_not_collected_yet', async () => {
    const complete = await aRealAccount();
    const sandboxId = tenant.accounts[aCollectedNetwork()];

    const accountRead = await (await read(complete.accountId, '')).json();
    const sandbox = await read(sandboxId);

    expect(accountRead).not.toHaveProperty('missingMetricsScopes');
    // Its reading comes with its posts' collection (docs/metrics.md "Account metrics"); none has run.
    expect(sandbox.status).toBe(409);
    expect(await sandbox.json()).toMatchObject({
      error: 'metrics_not_collected_yet',
      nextCollectionAt: TOMORROW,
    });
  });

  it("a workspace that does not collect the account's network: 409 metrics_unavailable", async () => {
    const other = await host.admin.bootstrap({ name: 'No metrics' });
    await host.deps.tenancy.setMetricsCollection(other.tenantId, other.workspaceId, { platforms: [] });
    const account = await host.deps.tenancy.getAccount(
      other.tenantId,
      other.workspaceId,
      other.accounts[aCollectedNetwork()],
    );
    if (!account) throw new Error('no account');
    await host.deps.tenancy.putAccount({ ...account, sandbox: false, scopes: ['all'] });

    const response = await host.call(
      `/v1/workspaces/${other.workspaceId}/accounts/${account.accountId}/metrics`,
      { apiKey: other.apiKey },
    );

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'metrics_unavailable',
      reason: 'not_collected_by_workspace',
    });
  });

  it('another workspace’s account, or none: 404', async () => {
    const other = await host.admin.bootstrap({ name: 'Elsewhere' });
    expect((await read(other.accounts.twitter)).status).toBe(404);
    expect((await read(newId('account', NOW))).status).toBe(404);
  });
});
