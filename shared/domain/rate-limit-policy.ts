/**
 * Rate-limit families and their per-minute budgets (the service interface's section 8,
 * docs/api-decisions.md#rate-limits).
 * Pure policy: the counting itself lives behind the RateLimiter port.
 */
export const RATE_LIMIT_FAMILIES = ['posts_create', 'posts_read', 'media_uploads', 'other'] as const;
export type RateLimitFamily = (typeof RATE_LIMIT_FAMILIES)[number];

export const BASE_LIMITS_PER_MINUTE: Readonly<Record<RateLimitFamily, number>> = {
  posts_create: 120,
  posts_read: 600,
  media_uploads: 60,
  other: 600,
};

export const PLAN_TIERS = ['free', 'pro', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export const PLAN_MULTIPLIERS: Readonly<Record<PlanTier, number>> = { free: 1, pro: 5, enterprise: 20 };

export const WINDOW_MS = 60_000;

export function limitFor(family: RateLimitFamily, tier: PlanTier): number {
  return BASE_LIMITS_PER_MINUTE[family] * PLAN_MULTIPLIERS[tier];
}

export interface RateWindow {
  /** Epoch ms at which the fixed one-minute window started. */
  startMs: number;
  /** Epoch ms at which it ends and the counter starts again. */
  endMs: number;
}

export function windowAt(nowMs: number): RateWindow {
  const startMs = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  return { startMs, endMs: startMs + WINDOW_MS };
}

/** Whole seconds until the window ends, at least 1 so a client never retries at once. */
export function secondsUntilReset(window: RateWindow, nowMs: number): number {
  return Math.max(1, Math.ceil((window.endMs - nowMs) / 1000));
}

/** The outcome the HTTP layer turns into headers or a 429. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window resets (X-RateLimit-Reset). */
  resetEpochSeconds: number;
  /** Whole seconds to wait (Retry-After), meaningful when not allowed. */
  retryAfterSeconds: number;
}
