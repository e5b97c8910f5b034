import { nextAccountReadingAt } from './account-metrics.js';
import type { AccountMetricValues, MetricsFailureKind, MetricsReading } from './metrics.js';
import { type MetricsCircumstances, problemOf, refusalWithoutReading } from './metrics-answer.js';
import type { MetricsRefusal } from './metrics-errors.js';
import type { Account } from './tenancy.js';

/** What the account metrics read answers once there is a reading. */
export interface AccountMetricsView {
  accountId: string;
  platform: Account['platform'];
  collectedAt: string;
  metrics: AccountMetricValues;
  /** One reading a day, oldest first; the last is the latest. */
  history: MetricsReading<AccountMetricValues>[];
  nextCollectionAt: string | null;
  problem: { failure: MetricsFailureKind; at: string; missingScopes?: string[] } | null;
}

/**
 * An account's metrics, or why there are none: the same rules as a post's (metrics-answer.ts),
 * without "not published". The next reading is due from the next UTC midnight (the daily sweep's,
 * or a sandbox account's with its posts' next collection after it), while the account is
 * connected and its network's metrics are collected; none once it is disconnected.
 */
export async function answerAccountMetrics(
  account: Account,
  now: number,
  circumstancesOf: () => Promise<MetricsCircumstances>,
): Promise<{ view: AccountMetricsView } | { refusal: MetricsRefusal }> {
  const state = account.metrics;
  const latest = state?.readings.at(-1);
  const nextCollectionAt = account.status === 'connected' ? nextAccountReadingAt(now) : null;
  if (latest && state) {
    const { problem } = state;
    return {
      view: {
        accountId: account.accountId,
        platform: account.platform,
        collectedAt: latest.collectedAt,
        metrics: latest.metrics,
        history: state.readings,
        nextCollectionAt,
        problem: problemOf(problem),
      },
    };
  }
  return { refusal: refusalWithoutReading(state?.problem, await circumstancesOf(), nextCollectionAt) };
}
