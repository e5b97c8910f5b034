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
}
