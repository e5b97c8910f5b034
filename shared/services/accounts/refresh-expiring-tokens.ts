import type { Logger } from '../../ports/logger.js';
import { type AccountCredentialsDeps, makeAccountCredentials } from './account-credentials.js';

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
}

/**
 * The daily refresh sweep (docs/delivery.md "The daily refresh sweep"): every connected
 * real-network account whose access token expires within SWEEP_HORIZON_MS is renewed through the
 * same code as delivery (account-credentials.ts: persisted before use, a lost race settled by the
 * winner's tokens). A refresh the network refuses disconnects the account, as does a token already
 * expired that cannot be renewed; `account.disconnected` follows from the stream, so a caller hears
 * of it before a post fails. One account at a time; an account the list shows twice (its new expiry
 * still within the horizon) is done once.
 */
export function makeRefreshExpiringTokens(deps: AccountCredentialsDeps & { logger: Logger }) {
  const credentials = makeAccountCredentials(deps);

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
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await deps.tenancy.listAccountsExpiringBefore(before, {
        limit: PAGE_SIZE,
        ...(cursor && { cursor }),
      });
      for (const account of page.items) {
        if (seen.has(account.accountId)) continue;
        if (options.timeLeftMs && options.timeLeftMs() < SWEEP_STOP_MARGIN_MS) {
          report.stoppedEarly = true;
          break;
        }
        seen.add(account.accountId);
        report.examined += 1;
        if (account.sandbox || account.status !== 'connected') {
          report.skipped += 1;
          continue;
        }
        const log = logger.with({
          tenantId: account.tenantId,
          workspaceId: account.workspaceId,
          accountId: account.accountId,
          platform: account.platform,
        });
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
      cursor = page.nextCursor;
    } while (cursor && !report.stoppedEarly);
    const acted = report.refreshed + report.disconnected + report.failed > 0;
    if (acted || report.stoppedEarly) logger.info('token sweep done', { ...report });
    else logger.debug('token sweep: nothing to renew', { ...report });
    return report;
  };
}
