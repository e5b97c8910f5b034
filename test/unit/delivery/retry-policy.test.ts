import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideAfterFailure,
  MAX_TRANSIENT_ATTEMPTS,
  RATE_LIMIT_WINDOW_MS,
  transientBackoffSeconds,
} from '../../../shared/domain/retry-policy.js';

const NOW = Date.UTC(2030, 0, 1, 12);

describe('transientBackoffSeconds', () => {
  it('grows exponentially within [ceiling/2, ceiling] and is capped at 300 s', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const ceiling = Math.min(300, 5 * 2 ** (attempt - 1));
          const delay = transientBackoffSeconds(attempt, () => r);
          expect(delay).toBeGreaterThanOrEqual(Math.ceil(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });
});

describe('decideAfterFailure', () => {
  it('retries a transient failure until the last attempt, then fails it as retryable', () => {
    const facts = {
      failure: 'transient' as const,
      code: 'PLATFORM_UNAVAILABLE',
      message: '503',
      platformRawCode: '503',
    };
    for (let attempt = 1; attempt < MAX_TRANSIENT_ATTEMPTS; attempt++) {
      expect(decideAfterFailure(facts, { attempt, now: NOW }, () => 0.5).kind).toBe('retry');
    }
    expect(decideAfterFailure(facts, { attempt: MAX_TRANSIENT_ATTEMPTS, now: NOW })).toEqual({
      kind: 'fail',
      error: {
        origin: 'platform',
        code: 'PLATFORM_UNAVAILABLE',
        message: '503',
        platformRawCode: '503',
        retryable: true,
      },
    });
  });

  it('retries a rate limit after at least the network’s wait, remembering when it started', () => {
    const decision = decideAfterFailure(
      { failure: 'rate_limited', code: 'RATE_LIMITED', message: 'slow down', retryAfterSeconds: 90 },
      { attempt: 1, now: NOW },
      () => 0,
    );
    expect(decision).toEqual({
      kind: 'retry',
      delaySeconds: 90,
      rateLimitedSince: new Date(NOW).toISOString(),
    });
  });

  it('gives up on a rate limit about 15 minutes after it began: RATE_LIMITED, origin platform, retryable', () => {
    const since = new Date(NOW - RATE_LIMIT_WINDOW_MS + 10_000).toISOString();
    const decision = decideAfterFailure(
      {
        failure: 'rate_limited',
        code: 'RATE_LIMITED',
        message: 'slow down',
        platformRawCode: '429',
        retryAfterSeconds: 60,
      },
      { attempt: 9, now: NOW, rateLimitedSince: since },
      () => 0,
    );
    expect(decision).toEqual({
      kind: 'fail',
      error: {
        origin: 'platform',
        code: 'RATE_LIMITED',
        message: 'slow down',
        platformRawCode: '429',
        retryable: true,
      },
    });
  });

  it.each(['permanent', 'auth_revoked'] as const)('fails a %s failure at once, not retryable', (failure) => {
    const decision = decideAfterFailure(
      { failure, code: 'MEDIA_TOO_LARGE', message: 'too big' },
      { attempt: 1, now: NOW },
    );
    expect(decision).toEqual({
      kind: 'fail',
      error: { origin: 'platform', code: 'MEDIA_TOO_LARGE', message: 'too big', retryable: false },
    });
  });
});
