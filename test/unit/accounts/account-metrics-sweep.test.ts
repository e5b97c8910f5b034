import { describe, expect, it } from 'vitest';
import { ACCOUNT_METRICS_DAYS } from '../../../shared/domain/account-metrics.js';
import type { Platform } from '../../../shared/domain/platforms.js';
import type { Network } from '../../../shared/networks/network.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  Connector,
} from '../../../shared/ports/connector.js';
import { makeRefreshExpiringTokens } from '../../../shared/services/accounts/refresh-expiring-tokens.js';
import { sealTokens } from '../../../shared/services/accounts/token-vault.js';
import { makeMemoryLogger, makeMemoryMetrics } from '../../support/memory-observability.js';
import { anAccount, aWorkspace } from '../support/builders.js';
import { FakeOAuthProvider } from '../support/fake-oauth-provider.js';
import { FakeNetwork } from '../support/in-memory-delivery-ports.js';
import { InMemorySecretCipher } from '../support/in-memory-secret-cipher.js';
import { InMemoryTenancyStore } from '../support/in-memory-tenancy-store.js';

const NOW = Date.parse('2030-01-01T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const OWNER = {
  tenantId: 'ten_01JD0000000000000000000000',
  workspaceId: 'wks_01JD0000000000000000000000',
  accountId: 'acc_01JD0000000000000000000001',
};

/** A network whose account read answers followers that grow by 10 a day, or what a test scripts. */
class AccountReader extends FakeNetwork implements Connector {
  readonly reads: AccountMetricsRequest[] = [];
  next: AccountMetricsAnswer | undefined;
  constructor(private readonly clock: { now(): number }) {
    super();
  }
  async readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    this.reads.push(request);
    const scripted = this.next;
    this.next = undefined;
    return (
      scripted ?? {
        kind: 'metrics',
        metrics: { followers: 100 + 10 * Math.floor((this.clock.now() - NOW) / DAY) },
      }
    );
  }
}

async function setup() {
  const clock = fixedClock(NOW);
  const tenancy = new InMemoryTenancyStore();
  const secrets = new InMemorySecretCipher();
  const oauth = new FakeOAuthProvider(clock);
  const reader = new AccountReader(clock);
  const networks = new Map<Platform, Network>([
    ['linkedin', { platform: 'linkedin', app: 'LINKEDIN', oauth, connector: reader }],
  ]);
  await tenancy.putWorkspace(aWorkspace());
  // A token good for a year: the renewal walk does not list it, the metrics walk does.
  const granted = oauth.grant({ expiresAt: new Date(NOW + 365 * DAY).toISOString() });
  await tenancy.putAccount(
    anAccount({
      ...OWNER,
      platform: 'linkedin',
      sandbox: false,
      networkUserId: 'member-1',
      tokenExpiresAt: granted.expiresAt,
      encryptedTokens: await sealTokens(secrets, OWNER, granted),
      tokensVersion: 1,
      scopes: granted.scopes,
    }),
  );
  const sweep = makeRefreshExpiringTokens({
    tenancy,
    secrets,
    networks,
    clock,
    logger: makeMemoryLogger(),
    metrics: makeMemoryMetrics(),
    accountMetrics: { workspaces: tenancy },
  });
  const stored = async () =>
    (await tenancy.getAccount(OWNER.tenantId, OWNER.workspaceId, OWNER.accountId))?.metrics;
  return { clock, tenancy, reader, sweep, granted, stored };
}

describe('the daily sweep reads each account’s own metrics', () => {
  it('once a UTC day, with the account’s token, whatever its expiry; a second run the same day reads nothing', async () => {
    const { clock, reader, sweep, granted, stored } = await setup();

    const first = await sweep();
    const again = await sweep();
    clock.advance(DAY);
    await sweep();

    expect(first.accountMetrics).toEqual({ read: 1, failed: 0, skipped: 0 });
    expect(again.accountMetrics).toEqual({ read: 0, failed: 0, skipped: 1 });
    expect(reader.reads).toHaveLength(2);
    expect(reader.reads[0]?.credentials).toEqual({ accessToken: granted.accessToken });
    expect(await stored()).toEqual({
      readings: [
        { collectedAt: '2030-01-01T12:00:00.000Z', metrics: { followers: 100 } },
        { collectedAt: '2030-01-02T12:00:00.000Z', metrics: { followers: 110 } },
      ],
    });
  });

  it(`keeps one reading a day for ${ACCOUNT_METRICS_DAYS} days, the oldest dropped`, async () => {
    const { clock, sweep, stored } = await setup();

    for (let day = 0; day < ACCOUNT_METRICS_DAYS + 5; day++) {
      await sweep();
      clock.advance(DAY);
    }

    const readings = (await stored())?.readings ?? [];
    expect(readings).toHaveLength(ACCOUNT_METRICS_DAYS);
    expect(readings[0]?.collectedAt).toBe('2030-01-06T12:00:00.000Z');
    expect(readings.at(-1)?.metrics).toEqual({ followers: 100 + 10 * (ACCOUNT_METRICS_DAYS + 4) });
  });

  it("a failure is noted beside the readings kept, and not retried the same day; the next day's reading clears it", async () => {
    const { clock, reader, sweep, stored } = await setup();
    await sweep();
    clock.advance(DAY);
    reader.next = {
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['r_organization_followers'],
      message: 'scope',
    };

    const failed = await sweep();
    const sameDay = await sweep();

    expect(failed.accountMetrics).toMatchObject({ failed: 1 });
    expect(sameDay.accountMetrics).toMatchObject({ read: 0, failed: 0, skipped: 1 });
    expect(await stored()).toEqual({
      readings: [{ collectedAt: '2030-01-01T12:00:00.000Z', metrics: { followers: 100 } }],
      problem: {
        failure: 'missing_scopes',
        at: '2030-01-02T12:00:00.000Z',
        missingScopes: ['r_organization_followers'],
      },
    });
    clock.advance(DAY);
    await sweep();
    expect((await stored())?.problem).toBeUndefined();
    expect((await stored())?.readings).toHaveLength(2);
  });

  it("a workspace that does not collect the network's metrics: the account is not read", async () => {
    const { tenancy, reader, sweep, stored } = await setup();
    await tenancy.setMetricsCollection(OWNER.tenantId, OWNER.workspaceId, { platforms: ['youtube'] });

    const report = await sweep();

    expect(report.accountMetrics).toEqual({ read: 0, failed: 0, skipped: 1 });
    expect(reader.reads).toHaveLength(0);
    expect(await stored()).toBeUndefined();
  });

  it('numbers that are not counts are dropped, never stored', async () => {
    const { reader, sweep, stored } = await setup();
    reader.next = { kind: 'metrics', metrics: { followers: 5, following: -1, posts: Number.NaN } };

    await sweep();

    expect((await stored())?.readings[0]?.metrics).toEqual({ followers: 5 });
  });
});
