import type { Context } from 'hono';
import {
  ACCOUNT_METRIC_NAMES,
  type AccountMetricName,
  type AccountMetricValues,
  type MetricsFailureKind,
} from '../../domain/metrics.js';
import type { Platform } from '../../domain/platforms.js';
import type { DashboardEnv } from '../env.js';
import { type Html, html } from '../html.js';
import { metricCharts } from './metrics-chart.js';
import { type MetricsOutcome, type MetricsResource, readMetrics } from './metrics-read.js';
import { NETWORK_NAMES } from './posts-format.js';
import { missingScopes, scopesOf } from './posts-metrics.js';
import { utcTime } from './time.js';

/** An account's metrics as `GET …/accounts/{account_id}/metrics` answers them (getAccountMetrics): one reading a day. */
export interface AccountMetricsResource extends MetricsResource<AccountMetricName, AccountMetricValues> {
  accountId: string;
}

export type AccountMetricsOutcome = MetricsOutcome<AccountMetricsResource>;

/** The account's metrics through the API's read (which never calls the network). */
export function readAccountMetrics(
  c: Context<DashboardEnv>,
  workspaceId: string,
  accountId: string,
): Promise<AccountMetricsOutcome> {
  return readMetrics(c, 'getAccountMetrics', { workspace_id: workspaceId, account_id: accountId });
}

/** Why there are no readings, in words, from the 409's code and its members. */
function refusalInWords(
  workspaceId: string,
  platform: Platform,
  refusal: Extract<AccountMetricsOutcome, { ok: false }>,
): Html {
  const network = NETWORK_NAMES[platform];
  switch (refusal.code) {
    case 'metrics_not_collected_yet': {
      const due =
        typeof refusal.fields.nextCollectionAt === 'string' ? refusal.fields.nextCollectionAt : undefined;
      return due
        ? html`Not collected yet: the first reading is due from ${utcTime(due)}.`
        : html`Not collected yet, and no reading is scheduled while the account is disconnected.`;
    }
    case 'metrics_missing_scopes':
      return missingScopes(workspaceId, scopesOf(refusal.fields.missingScopes));
    case 'metrics_unavailable':
      if (refusal.fields.reason === 'not_collected_by_workspace')
        return html`This workspace does not collect ${network}'s metrics: its metrics setting leaves the network out.`;
      return html`${network} gives no account metrics through this service.`;
    default:
      return html`${refusal.message}`;
  }
}

/** What went wrong with the last reading, when it did: the readings below are the ones kept. */
function lastProblem(workspaceId: string, problem: AccountMetricsResource['problem']): Html {
  if (!problem) return html``;
  const words: Record<MetricsFailureKind, Html> = {
    missing_scopes: missingScopes(workspaceId, problem.missingScopes ?? []),
    not_found: html`The network no longer finds the account.`,
    rate_limited: html`The network asked the service to wait; the next reading tries again.`,
    auth_failed: html`The network refused the account's token: reconnect it.`,
    unavailable: html`The network did not answer; the next reading tries again.`,
  };
  return html`<p><strong>The last reading, at ${utcTime(problem.at)}, read nothing.</strong> ${
    words[problem.failure]
  }</p>`;
}

function nextReading(nextCollectionAt: string | null): Html {
  return nextCollectionAt
    ? html`<p>One reading a day; the next is due from ${utcTime(nextCollectionAt)}.</p>`
    : html`<p>No further reading is scheduled: the account is disconnected.</p>`;
}

/**
 * An account's "Metrics" section: followers and what else its network reports, a chart and a table
 * each over the daily readings, the next reading, the last problem; or, without readings, why.
 */
export function accountMetricsSection(
  workspaceId: string,
  platform: Platform,
  outcome: AccountMetricsOutcome,
): Html {
  const body = outcome.ok
    ? html`<p>Read from ${NETWORK_NAMES[platform]}; the latest at ${utcTime(outcome.metrics.collectedAt)}.</p>${nextReading(
        outcome.metrics.nextCollectionAt,
      )}${lastProblem(workspaceId, outcome.metrics.problem)}${metricCharts(
        outcome.metrics.history,
        'account-metric',
        ACCOUNT_METRIC_NAMES,
      )}`
    : html`<p>${refusalInWords(workspaceId, platform, outcome)}</p>`;
  return html`<section aria-labelledby="metrics-heading"><h2 id="metrics-heading">Metrics</h2>${body}</section>`;
}
