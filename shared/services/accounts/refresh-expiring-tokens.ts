import { accountMetricsDue } from '../../domain/account-metrics.js';
import type { Account } from '../../domain/tenancy.js';
import type { Logger } from '../../ports/logger.js';
import type { WorkspaceStore } from '../../ports/workspace-store.js';
import { type AccountCredentialsDeps, makeAccountCredentials } from './account-credentials.js';
import { type AccountMetricsOutcome, makeCollectAccountMetrics } from './collect-account-metrics.js';

/** The daily sweep renews every token that expires within this (a week: six more sweeps before it lapses). */
export const SWEEP_HORIZON_MS = 7 * 24 * 60 * 60 * 1000;
/** Accounts read per page of the expiry list. */
const PAGE_SIZE = 50;
/** The sweep stops taking new accounts with less time than this left (a Lambda's remaining time). */
export const SWEEP_STOP_MARGIN_MS = 60 * 1000;

export interface SweepOptions {
  /** The invocation's logger; the deps' otherwise. */
  logger?: Logger;
  /** The time the run has left (a Lambda's getRemainingTimeInMillis); unbounded when absent. */
  timeLeftMs?: () => number;
}

export interface SweepReport {
  /** Accounts the list gave (each counted once). */
  examined: number;
  refreshed: number;
  /** Refused by the network, or expired with no way to renew: disconnected (account.disconnected). */
  disconnected: number;
  /** Nothing to do: a token that cannot be renewed but still works, or an account no longer connected. */
  skipped: number;
  /** The network's OAuth did not answer, or the stored tokens cannot be read: tried again tomorrow. */
  failed: number;
  /** The run ran out of time before the end of the list. */
  stoppedEarly: boolean;
  /** The accounts' daily metrics readings (when the sweep takes them): how many of each outcome. */
  accountMetrics?: Record<AccountMetricsOutcome, number>;
}

/** Every account of the expiry index, whatever its expiry: the metrics walk's list. */
const EVERY_EXPIRY = '9999-12-31T00:00:00.000Z';

/**
 * The daily refresh sweep (docs/delivery.md "The daily refresh sweep"): every connected
 * real-network account whose access token expires within SWEEP_HORIZON_MS is renewed through the
 * same code as delivery (account-credentials.ts: persisted before use, a lost race settled by the
 * winner's tokens). A refresh the network refuses disconnects the account, as does a token already
 * expired that cannot be renewed; `account.disconnected` follows from the stream, so a caller hears
 * of it before a post fails. One account at a time; an account the list shows twice (its new expiry
 * still within the horizon) is done once.
 */
export function makeRefreshExpiringTokens(
  deps: AccountCredentialsDeps & {
    logger: Logger;
    /** Given, the sweep also takes each connected account's daily metrics reading (docs/metrics.md). */
    accountMetrics?: { workspaces: Pick<WorkspaceStore, 'getWorkspace'> };
  },
) {
  const credentials = makeAccountCredentials(deps);
  const collect =
    deps.accountMetrics &&
    makeCollectAccountMetrics({
      tenancy: deps.tenancy,
      workspaces: deps.accountMetrics.workspaces,
      connectorFor: (account: Account) => deps.networks.get(account.platform)?.connector,
      clock: deps.clock,
    });

  /**
   * The accounts of the expiry index expiring before `before`, page by page, each once (an account
   * the list shows twice, its new expiry still before `before`, is given once). Stops, with
   * `report.stoppedEarly`, when the run has too little time left to take another account.
   */
  async function* eachAccountExpiringBefore(
    before: string,
    report: SweepReport,
    timeLeftMs: SweepOptions['timeLeftMs'],
  ): AsyncGenerator<Account> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await deps.tenancy.listAccountsExpiringBefore(before, {
        limit: PAGE_SIZE,
        ...(cursor && { cursor }),
      });
      for (const account of page.items) {
        if (seen.has(account.accountId)) continue;
        if (timeLeftMs && timeLeftMs() < SWEEP_STOP_MARGIN_MS) {
          report.stoppedEarly = true;
          return;
        }
        seen.add(account.accountId);
        yield account;
      }
      cursor = page.nextCursor;
    } while (cursor);
  }

  const logOf = (logger: Logger, account: Account): Logger =>
    logger.with({
      tenantId: account.tenantId,
      workspaceId: account.workspaceId,
      accountId: account.accountId,
      platform: account.platform,
    });

  /**
   * The accounts' daily metrics: every connected real-network account of the expiry index (all of
   * them whose token has a known expiry), after the renewals so each reads with fresh tokens. An
   * account is read once a UTC day; tokens are renewed here only if about to expire, as delivery does.
   */
  async function readAccountMetrics(
    run: NonNullable<typeof collect>,
    report: SweepReport,
    logger: Logger,
    timeLeftMs: SweepOptions['timeLeftMs'],
  ): Promise<void> {
    const counts: Record<AccountMetricsOutcome, number> = { read: 0, failed: 0, skipped: 0 };
    report.accountMetrics = counts;
    for await (const account of eachAccountExpiringBefore(EVERY_EXPIRY, report, timeLeftMs)) {
      const readable =
        !account.sandbox &&
        account.status === 'connected' &&
        deps.networks.get(account.platform)?.connector.readAccountMetrics !== undefined &&
        accountMetricsDue(account.metrics, deps.clock.now());
      if (!readable) {
        counts.skipped += 1;
        continue;
      }
      const log = logOf(logger, account);
      const ready = await credentials(account, { signal: new AbortController().signal }, log);
      if (ready.kind !== 'ready') {
        counts.failed += 1;
        continue;
      }
      counts[await run(ready.account, { accessToken: ready.tokens.accessToken }, log)] += 1;
    }
  }

  return async function refreshExpiringTokens(options: SweepOptions = {}): Promise<SweepReport> {
    const logger = options.logger ?? deps.logger;
    const report: SweepReport = {
      examined: 0,
      refreshed: 0,
      disconnected: 0,
      skipped: 0,
      failed: 0,
      stoppedEarly: false,
    };
    const before = new Date(deps.clock.now() + SWEEP_HORIZON_MS).toISOString();
    for await (const account of eachAccountExpiringBefore(before, report, options.timeLeftMs)) {
      report.examined += 1;
      if (account.sandbox || account.status !== 'connected') {
        report.skipped += 1;
        continue;
      }
      const log = logOf(logger, account);
      const outcome = await credentials(
        account,
        { signal: new AbortController().signal, aheadMs: SWEEP_HORIZON_MS },
        log,
      );
      const counted =
        outcome.kind === 'ready'
          ? outcome.refreshed
            ? 'refreshed'
            : 'skipped'
          : outcome.kind === 'refused'
            ? 'disconnected'
            : outcome.kind === 'disconnected'
              ? 'skipped'
              : 'failed';
      report[counted] += 1;
      if (counted === 'failed')
        log.warn('the sweep could not renew the account’s tokens', { outcome: outcome.kind });
    }
    if (collect && !report.stoppedEarly)
      await readAccountMetrics(collect, report, logger, options.timeLeftMs);
    const acted = report.refreshed + report.disconnected + report.failed > 0;
    if (acted || report.stoppedEarly) logger.info('token sweep done', { ...report });
    else logger.debug('token sweep: nothing to renew', { ...report });
    return report;
  };
}
