import { RateLimitedError } from '../../domain/errors.js';
import type { RateLimitDecision } from '../../domain/rate-limit-policy.js';
import type { Principal } from '../../domain/tenancy.js';
import type { Operation } from '../../http/operation.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';

/**
 * One atomic counter update per authenticated call, in the tenant's bucket for the operation's
 * family, whatever the transport: REST and MCP share the buckets. Past the limit: 429 with
 * Retry-After (the decision is still reported, for the transport's headers).
 */
export async function consumeRateLimit(
  operation: Operation,
  limiter: RateLimiter,
  principal: Principal,
  report: (decision: RateLimitDecision) => void,
): Promise<void> {
  const { tenant } = principal;
  const decision = await limiter.consume(tenant.tenantId, operation.rateLimitFamily, tenant.planTier);
  report(decision);
  if (!decision.allowed) throw new RateLimitedError(operation.rateLimitFamily, decision.retryAfterSeconds);
}
