import { DAILY_QUOTAS, PROJECT_QUOTA_COUNTERS, quotaDay } from '../../domain/account-quotas.js';
import type { Platform } from '../../domain/platforms.js';
import type { MetricsDeps } from './metrics-deps.js';

/** A metrics read's cost in a project's units (YouTube's videos.list: 1 unit a call). */
export const METRICS_READ_UNITS = 1;

/**
 * For a network whose quota is the project's (YouTube), counts one read's units in the day's
 * project counter, but only while that leaves at least one upload's cost free: uploads keep
 * priority. True when the read may go ahead (always, for a network without a project counter).
 */
export function makeReserveReadUnits(deps: Pick<MetricsDeps, 'quotas' | 'clock' | 'dailyQuotas'>) {
  const ceilings = deps.dailyQuotas ?? DAILY_QUOTAS;
  return async function reserveReadUnits(platform: Platform): Promise<boolean> {
    const project = PROJECT_QUOTA_COUNTERS[platform];
    if (!project) return true;
    const { limit, costPerPost } = ceilings[platform];
    const day = quotaDay(deps.clock.now());
    return deps.quotas.reserve(project, day, METRICS_READ_UNITS, limit - costPerPost);
  };
}

/** Seconds until the quota day ends (00:00 UTC), when a refused read may try again. */
export function secondsUntilNextQuotaDay(now: number): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000));
}
