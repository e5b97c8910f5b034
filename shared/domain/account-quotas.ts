import type { DailyQuota } from '../networks/definition.js';
import {
  DAILY_QUOTA_OF_PLATFORM,
  PLATFORMS_REPORTING_QUOTA,
  PROJECT_QUOTA_COUNTER_OF_PLATFORM,
} from '../networks/definitions.js';
import type { Platform } from './platforms.js';

/**
 * Approximate daily ceilings per connected account (interface 8.5). The networks enforce their own
 * and change them without notice; these keep one account from burning through its network's
 * quota within the service. The video network counts quota units (an upload costs about 1,600).
 */
export type { DailyQuota } from '../networks/definition.js';

export type DailyQuotas = Readonly<Record<Platform, DailyQuota>>;

/** Each network declares its own (shared/networks/<net>/definition.ts). */
export const DAILY_QUOTAS: DailyQuotas = DAILY_QUOTA_OF_PLATFORM;

/** A network's own ceiling and cost of a post, as an operator set them (runtime/quota-settings.ts). */
export type QuotaOverride = Pick<DailyQuota, 'limit' | 'costPerPost'>;

export type DailyQuotaOverrides = Readonly<Partial<Record<Platform, QuotaOverride>>>;

/**
 * The ceilings with some set to a project's own quota: a provider may grant more on request, and a
 * post's cost has changed before (docs/networks.md, the network's "Quota"). The unit stays the network's.
 */
export function withQuotaOverrides(overrides: DailyQuotaOverrides): DailyQuotas {
  const quotas: Record<Platform, DailyQuota> = { ...DAILY_QUOTAS };
  for (const [platform, override] of Object.entries(overrides) as [Platform, QuotaOverride | undefined][]) {
    if (override) quotas[platform] = { ...quotas[platform], ...override };
  }
  return quotas;
}

/**
 * The counter shared by every account of a network whose quota its provider enforces per app, not
 * per account: YouTube counts units per Google Cloud project (this deployment's app). It lives in
 * the same table as the accounts' counters (`QUOTA#youtube-project#<day>`), with the same ceiling
 * as an account's (its `quotaSettings`' limit: the project's grant) and the same UTC day, so a
 * reservation and its release always name the same two counters.
 */
export const PROJECT_QUOTA_COUNTERS: Readonly<Partial<Record<Platform, string>>> =
  PROJECT_QUOTA_COUNTER_OF_PLATFORM;

/**
 * A network's own count of an account's posts, as the connector last read it (Instagram's
 * `content_publishing_limit`: posts in a rolling window, of how many). Informative only: the
 * network enforces it, and it moves as the window rolls and as posts are made outside the service.
 */
export interface NetworkQuotaReading {
  used: number;
  total: number;
  /** The network's window, seconds (Instagram: 86,400, rolling). */
  windowSeconds: number;
  /** When it was read, ISO 8601 UTC. */
  readAt: string;
}

/** The networks whose connector reports the account's own quota (the account read shows it). */
export const NETWORK_REPORTED_QUOTAS: ReadonlySet<Platform> = new Set<Platform>(PLATFORMS_REPORTING_QUOTA);

/** The UTC day a quota counts in, `YYYY-MM-DD`; every ceiling resets at 00:00 UTC. */
export function quotaDay(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}
