import { RateLimitedError } from '../../domain/errors.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { Operation } from '../operation.js';
import { type ApiMiddleware, stateOf } from '../request-state.js';

/** One atomic counter update per authenticated request; 429 with Retry-After past the limit. */
export function rateLimit(operation: Operation, limiter: RateLimiter): ApiMiddleware {
  return {
    before: async (request) => {
      const state = stateOf(request);
      if (!state.principal) return;
      const { tenant } = state.principal;
      const decision = await limiter.consume(tenant.tenantId, operation.rateLimitFamily, tenant.planTier);
      state.rateLimit = decision;
      if (!decision.allowed)
        throw new RateLimitedError(operation.rateLimitFamily, decision.retryAfterSeconds);
    },
  };
}
