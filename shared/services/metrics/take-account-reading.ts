import { accountMetricsDue } from '../../domain/account-metrics.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccessCredentials } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import { makeCollectAccountMetrics } from '../accounts/collect-account-metrics.js';
import type { MetricsDeps } from './metrics-deps.js';
import { makeReserveReadUnits } from './read-units.js';

/**
 * The account's reading of the day, taken by a post's metrics collection right after the network
 * answered the post's read, with the same token (docs/metrics.md "Account metrics"). The daily
 * token sweep walks only accounts with a token expiry; this reaches the others too, sandbox
 * accounts above all, with no index of its own: an account with a post being collected is read.
 *
 * Costs no more than the sweep: at most one reading a UTC day per account whichever path takes it
 * (accountMetricsDue, on the account as loaded), only for a network the workspace collects (X bills
 * the read: its setting decides, in collectAccountMetrics), and on a network whose quota is the
 * project's (YouTube) only while an upload's units stay free. The sandbox spends no network's units.
 * Never throws: a reading that cannot be taken or stored leaves the post's collection as it was.
 */
export function makeTakeAccountReading(deps: MetricsDeps) {
  const reserveReadUnits = makeReserveReadUnits(deps);
  const collectAccountMetrics = makeCollectAccountMetrics({
    tenancy: deps.tenancy,
    ...(deps.workspaces && { workspaces: deps.workspaces }),
    connectorFor: deps.connectorFor,
    clock: deps.clock,
  });

  return async function takeAccountReading(
    account: Account,
    credentials: AccessCredentials | undefined,
    log: Logger,
  ): Promise<void> {
    if (!deps.connectorFor(account)?.readAccountMetrics) return;
    if (!accountMetricsDue(account.metrics, deps.clock.now())) return;
    try {
      if (!account.sandbox && !(await reserveReadUnits(account.platform))) return;
      await collectAccountMetrics(account, credentials, log);
    } catch (error) {
      log.warn('account metrics reading not taken with the post collection', {
        error: error instanceof Error ? error.name : 'unknown',
      });
    }
  };
}
