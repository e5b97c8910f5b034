import type { NetworkQuotaReading } from '../domain/account-quotas.js';

/**
 * Each account's use of its daily quota (counted per UTC day). `accountId` names the counter: an
 * account's, or a project-wide one (`PROJECT_QUOTA_COUNTERS` in domain/account-quotas.ts).
 */
export interface AccountQuotas {
  /** Adds `cost` unless that would pass `limit`; false (nothing counted) when it would. */
  reserve(accountId: string, day: string, cost: number, limit: number): Promise<boolean>;
  /** Gives back a reservation whose delivery did not publish. */
  release(accountId: string, day: string, cost: number): Promise<void>;
  used(accountId: string, day: string): Promise<number>;
  /** Keeps the network's own count as last read (a reading older than the one kept is ignored). */
  recordNetworkReading(accountId: string, reading: NetworkQuotaReading): Promise<void>;
  /** The last reading kept (TTL removes it about two days after it was read). */
  networkReading(accountId: string): Promise<NetworkQuotaReading | undefined>;
}
