import type { PlanTier, RateLimitDecision, RateLimitFamily } from '../domain/rate-limit-policy.js';

/** Counts one request against a tenant's per-minute budget for a family, atomically. */
export interface RateLimiter {
  consume(tenantId: string, family: RateLimitFamily, tier: PlanTier): Promise<RateLimitDecision>;
}
