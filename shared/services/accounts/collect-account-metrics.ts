import { accountMetricsDue, withAccountProblem, withAccountReading } from '../../domain/account-metrics.js';
import { ACCOUNT_METRIC_NAMES, cleanMetricValues } from '../../domain/metrics.js';
import { collectsMetricsFor } from '../../domain/metrics-settings.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccountStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { AccessCredentials, Connector } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import type { WorkspaceStore } from '../../ports/workspace-store.js';

/** A network's account read waits this long at most: the sweep has many accounts to get through. */
export const ACCOUNT_METRICS_TIMEOUT_MS = 15_000;

export interface AccountMetricsDeps {
  tenancy: Pick<AccountStore, 'recordAccountMetrics'>;
  /** Absent, every workspace has the default setting (as the delivery worker's deps allow). */
  workspaces?: Pick<WorkspaceStore, 'getWorkspace'>;
  connectorFor(account: Account): Connector | undefined;
  clock: Clock;
}

/** `skipped`: nothing to read (not due, not collected, or the network has no account reader). */
export type AccountMetricsOutcome = 'read' | 'failed' | 'skipped';

/**
 * Takes the account's reading of the day (followers and what else its network gives cheaply)
 * through its connector's readAccountMetrics and stores it on the account; a failure is noted
 * instead, its readings kept. Once a UTC day, only for networks the workspace collects.
 */
export function makeCollectAccountMetrics(deps: AccountMetricsDeps) {
  return async function collectAccountMetrics(
    account: Account,
    credentials: AccessCredentials | undefined,
    log: Logger,
  ): Promise<AccountMetricsOutcome> {
    const connector = deps.connectorFor(account);
    const now = deps.clock.now();
    if (!connector?.readAccountMetrics || !accountMetricsDue(account.metrics, now)) return 'skipped';
    const workspace = deps.workspaces
      ? await deps.workspaces.getWorkspace(account.tenantId, account.workspaceId)
      : {};
    if (!workspace || !collectsMetricsFor(workspace, account.platform)) return 'skipped';
    const at = new Date(now).toISOString();
    let answer: Awaited<ReturnType<NonNullable<Connector['readAccountMetrics']>>>;
    try {
      answer = await connector.readAccountMetrics({
        account,
        ...(credentials && { credentials }),
        signal: AbortSignal.timeout(ACCOUNT_METRICS_TIMEOUT_MS),
      });
    } catch (error) {
      log.warn('account metrics read failed without an answer', {
        error: error instanceof Error ? error.name : 'unknown',
      });
      answer = { kind: 'failed', failure: 'unavailable', message: 'The read gave no answer.' };
    }
    const state =
      answer.kind === 'metrics'
        ? withAccountReading(account.metrics, {
            collectedAt: at,
            metrics: cleanMetricValues(answer.metrics, ACCOUNT_METRIC_NAMES),
          })
        : withAccountProblem(account.metrics, {
            failure: answer.failure,
            at,
            ...(answer.missingScopes && { missingScopes: answer.missingScopes }),
          });
    await deps.tenancy.recordAccountMetrics(account.tenantId, account.workspaceId, account.accountId, state);
    if (answer.kind === 'failed') log.info('account metrics not read', { failure: answer.failure });
    return answer.kind === 'metrics' ? 'read' : 'failed';
  };
}
