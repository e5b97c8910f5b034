import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../shared/domain/ids.js';
import type { Account } from '../../../shared/domain/tenancy.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

const NOW = Date.parse('2030-03-01T12:00:00.000Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const TOMORROW = '2030-03-02T00:00:00.000Z';

/**
 * An account's page shows its metrics through the API's account metrics read: followers and what
 * else its network reports, a chart and a table each over the daily readings; without readings, the
 * 409's meaning in words, as a post's page does.
 */
describe('dashboard: an account’s page and its metrics', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let client: DashboardClient;
  let n = 0;

  const aTikTokAccount = async (overrides: Partial<Account> = {}): Promise<Account> => {
    n += 1;
    const account: Account = {
      accountId: newId('account', NOW + n),
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      platform: 'tiktok',
      displayName: `Creator ${n}`,
      handle: `@creator${n}`,
      status: 'connected',
      sandbox: false,
      connectedAt: '2030-01-01T00:00:00.000Z',
      createdAt: '2030-01-01T00:00:00.000Z',
      networkUserId: `user-${n}`,
      scopes: ['user.info.basic', 'video.publish', 'video.list', 'user.info.stats'],
      ...overrides,
    };
    await host.deps.tenancy.putAccount(account);
    return account;
  };
  const pageOf = async (accountId: string) => {
    const answer = await client.get(`/workspaces/${tenant.workspaceId}/accounts/${accountId}`);
    expect(answer.status).toBe(200);
    return answer.html;
  };
  const metricsOf = (html: string) =>
    html.match(/<section aria-labelledby="metrics-heading">.*?<\/section>/s)?.[0];

  beforeAll(async () => {
    host = await startTestHost({ clock: fixedClock(NOW) });
    tenant = await host.admin.bootstrap({ name: 'Account metrics page' });
    ({ client } = await signedInAs(host, {
      role: 'viewer',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('charts followers and each other count the network reports, each with its table, and the next reading', async () => {
    const account = await aTikTokAccount();
    await host.deps.tenancy.recordAccountMetrics(tenant.tenantId, tenant.workspaceId, account.accountId, {
      readings: [
        { collectedAt: iso(NOW - 2 * DAY), metrics: { followers: 1204, likes: 900 } },
        { collectedAt: iso(NOW - DAY), metrics: { followers: 1211, likes: 950, posts: 12 } },
        { collectedAt: iso(NOW - 3_600_000), metrics: { followers: 1230, likes: 990, posts: 13 } },
      ],
    });

    const html = await pageOf(account.accountId);
    const section = metricsOf(html);

    expect(html).toContain(`<dd>${account.handle}</dd>`);
    expect(section).toBeDefined();
    expect(section?.match(/<svg [^>]*role="img"/g)).toHaveLength(3);
    expect(section).toContain('<caption>Followers, each reading</caption>');
    expect(section).toContain('<caption>Posts, each reading</caption>');
    expect(section).toContain('<td>1,230</td>');
    expect(section).toContain('Followers over 3 readings: 1,204 at');
    expect(section).toContain('up 26.');
    expect(section).toContain('Posts over 2 readings: 12 at');
    expect(section).toContain(`the next is due from <time datetime="${TOMORROW}">`);
    expect(section).not.toContain('read nothing');
  });

  it('says the last reading’s problem beside the readings kept', async () => {
    const account = await aTikTokAccount();
    await host.deps.tenancy.recordAccountMetrics(tenant.tenantId, tenant.workspaceId, account.accountId, {
      readings: [{ collectedAt: iso(NOW - DAY), metrics: { followers: 50 } }],
      problem: { failure: 'auth_failed', at: iso(NOW - 3_600_000) },
    });

    const section = metricsOf(await pageOf(account.accountId));

    expect(section).toContain('Followers: one reading so far, 50 at');
    expect(section).toContain("The network refused the account's token: reconnect it.");
  });

  it('says no reading was taken yet, with when the first is due, instead of showing zeros', async () => {
    const account = await aTikTokAccount();

    const section = metricsOf(await pageOf(account.accountId));

    expect(section).toContain(
      `Not collected yet: the first reading is due from <time datetime="${TOMORROW}">`,
    );
    expect(section).not.toContain('<svg');
  });

  it('names the permissions the account’s own numbers lack and where to reconnect it', async () => {
    const account = await aTikTokAccount({ scopes: ['user.info.basic', 'video.publish', 'video.list'] });

    const html = await pageOf(account.accountId);
    const section = metricsOf(html);

    expect(section).toContain(
      'The account lacks the permissions its network asks for metrics (user.info.stats)',
    );
    expect(section).toContain(`href="/dashboard/workspaces/${tenant.workspaceId}/accounts">Accounts</a>`);
    expect(html).toContain('<dt>Missing for metrics</dt><dd><code>user.info.stats</code></dd>');
  });

  it('says a workspace that does not collect the network leaves it out', async () => {
    const other = await host.admin.bootstrap({ name: 'No metrics' });
    await host.deps.tenancy.setMetricsCollection(other.tenantId, other.workspaceId, { platforms: [] });
    const { client: otherClient } = await signedInAs(host, {
      role: 'viewer',
      tenantId: other.tenantId,
      workspaceIds: [other.workspaceId],
    });

    const answer = await otherClient.get(
      `/workspaces/${other.workspaceId}/accounts/${other.accounts.tiktok}`,
    );

    expect(answer.status).toBe(200);
    expect(metricsOf(answer.html)).toContain(
      "This workspace does not collect TikTok's metrics: its metrics setting leaves the network out.",
    );
  });

  it('links each account of the accounts table to its page; another workspace’s account or none: 404', async () => {
    const account = await aTikTokAccount();
    const other = await host.admin.bootstrap({ name: 'Elsewhere' });

    const table = await client.get(`/workspaces/${tenant.workspaceId}/accounts`);

    expect(table.html).toContain(
      `<a href="/dashboard/workspaces/${tenant.workspaceId}/accounts/${account.accountId}">${account.handle}</a>`,
    );
    expect(
      (await client.get(`/workspaces/${tenant.workspaceId}/accounts/${other.accounts.tiktok}`)).status,
    ).toBe(404);
    expect((await client.get(`/workspaces/${tenant.workspaceId}/accounts/not-an-id`)).status).toBe(404);
  });
});
