import type { AccountMetricValues, MetricsFailureKind, MetricsReading } from './metrics.js';

/** How many days of account readings are kept: one reading a day, the newest 90. */
export const ACCOUNT_METRICS_DAYS = 90;

/**
 * An account's own numbers over time (followers and what else its network gives cheaply), as the
 * daily sweep leaves them on the account (docs/metrics.md "Account metrics").
 */
export interface AccountMetricsState {
  /** One a UTC day, oldest first, at most ACCOUNT_METRICS_DAYS. */
  readings: MetricsReading<AccountMetricValues>[];
  /** The last read's failure; cleared by the next reading. */
  problem?: { failure: MetricsFailureKind; at: string; missingScopes?: readonly string[] };
}

const dayOf = (at: string) => at.slice(0, 10);

/** The state with this reading as its day's (a second read the same UTC day replaces the first). */
export function withAccountReading(
  state: AccountMetricsState | undefined,
  reading: MetricsReading<AccountMetricValues>,
): AccountMetricsState {
  const earlier = (state?.readings ?? []).filter(
    (kept) => dayOf(kept.collectedAt) !== dayOf(reading.collectedAt),
  );
  return { readings: [...earlier, reading].slice(-ACCOUNT_METRICS_DAYS) };
}

/** The state with the read's failure noted, its readings kept. */
export function withAccountProblem(
  state: AccountMetricsState | undefined,
  problem: NonNullable<AccountMetricsState['problem']>,
): AccountMetricsState {
  return { readings: state?.readings ?? [], problem };
}

/** Whether today's (UTC) reading is still to take: none yet today, and no failure noted today. */
export function accountMetricsDue(state: AccountMetricsState | undefined, now: number): boolean {
  const today = new Date(now).toISOString().slice(0, 10);
  const last = state?.readings.at(-1);
  if (last && dayOf(last.collectedAt) === today) return false;
  return !(state?.problem && dayOf(state.problem.at) === today);
}

/** When the next daily reading is due: the next UTC midnight's sweep. */
export function nextAccountReadingAt(now: number): string {
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00.000Z`);
  return new Date(today + 86_400_000).toISOString();
}
