import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { Account } from '../../shared/domain/tenancy.js';
import { networkMetricsOf } from '../../shared/networks/network-metrics.js';
import { fixedClock } from '../../shared/ports/clock.js';
import { silentLogger } from '../../shared/ports/logger.js';
import { makeCollectAccountMetrics } from '../../shared/services/accounts/collect-account-metrics.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { CREATOR, startWorld, type TikTokWorld } from './networks/tiktok/tiktok-world.js';

const NOW = Date.parse('2030-03-01T12:00:00.000Z');
const TOMORROW = '2030-03-02T00:00:00.000Z';

/**
 * An account's own metrics need fewer scopes than its posts' (NetworkMetrics.accountScopes): an
 * account granted them but not the posts' scope is not refused as missing scopes; its reading is
 * taken through the network and answered, while the account read still names what its posts lack.
 */
describe('account metrics of an account lacking only its posts’ scope', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let tiktok: TikTokWorld;
  let n = 0;
  const call = (accountId: string, path: string) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}${path}`, { apiKey: tenant.apiKey });
  const anAccount = async (overrides: Partial<Account>): Promise<Account> => {
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
      ...overrides,
    };
    await host.deps.tenancy.putAccount(account);
    return account;
  };

  beforeAll(async () => {
    host = await startTestHost({ clock: fixedClock(NOW) });
    tenant = await host.admin.bootstrap({ name: 'Account metrics scopes' });
    tiktok = await startWorld({ settings: { now: () => NOW } });
  });
  afterAll(async () => {
    await tiktok.stop();
    await host.stop();
  });

  it('TikTok without video.list: user.info.stats read through the fake, answered 200; the account read names video.list', async () => {
    const scopes = ['user.info.basic', 'video.publish', 'user.info.stats'];
    const account = await anAccount({ networkUserId: CREATOR.openId, scopes });

    const before = await call(account.accountId, '/metrics');
    expect(before.status).toBe(409);
    expect(await before.json()).toMatchObject({
      error: 'metrics_not_collected_yet',
      nextCollectionAt: TOMORROW,
    });

    const collect = makeCollectAccountMetrics({
      tenancy: host.deps.tenancy,
      workspaces: host.deps.tenancy,
      connectorFor: () => tiktok.network.connector,
      clock: host.deps.clock,
    });
    const accessToken = tiktok.fake.control.issueToken(undefined, scopes);
    expect(await collect(account, { accessToken }, silentLogger)).toBe('read');

    const after = await call(account.accountId, '/metrics');
    expect(after.status).toBe(200);
    const body = (await after.json()) as { metrics: Record<string, number>; problem: unknown };
    expect(body.metrics.followers).toEqual(expect.any(Number));
    expect(body.problem).toBeNull();
    const accountRead = (await (await call(account.accountId, '')).json()) as Record<string, unknown>;
    expect(accountRead.missingMetricsScopes).toEqual(['video.list']);
  });

  it('TikTok without user.info.stats: 409 metrics_missing_scopes naming it alone', async () => {
    const account = await anAccount({ scopes: ['user.info.basic', 'video.publish', 'video.list'] });

    const response = await call(account.accountId, '/metrics');

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'metrics_missing_scopes',
      missingScopes: ['user.info.stats'],
    });
  });

  it.each([
    ['linkedin', ['w_member_social', 'r_member_profileAnalytics']],
    ['instagram', ['instagram_business_basic', 'instagram_business_content_publish']],
  ] as const)(
    '%s granted only the account’s scopes: not refused for scopes, its posts’ scopes named on the account',
    async (platform, scopes) => {
      const granted: readonly string[] = scopes;
      const account = await anAccount({ platform, scopes: [...granted] });

      const metrics = await call(account.accountId, '/metrics');
      const accountRead = (await (await call(account.accountId, '')).json()) as Record<string, unknown>;

      expect(metrics.status).toBe(409);
      expect(await metrics.json()).toMatchObject({ error: 'metrics_not_collected_yet' });
      const lacking = (networkMetricsOf(platform)?.scopes ?? []).filter((scope) => !granted.includes(scope));
      expect(lacking.length).toBeGreaterThan(0);
      expect(accountRead.missingMetricsScopes).toEqual(lacking);
    },
  );
});
