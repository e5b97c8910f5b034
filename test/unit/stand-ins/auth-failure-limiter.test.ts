import { describe, expect, it } from 'vitest';
import { makeAuthFailureLimiter } from '../../../infra/local/auth-failure-limiter.js';
import { fixedClock } from '../../../shared/ports/clock.js';

const ADDRESS = '203.0.113.7';
const GOOD = 'Bearer smcp_good';

function limiterOf(failuresPerMinute = 3) {
  const clock = fixedClock(Date.parse('2030-01-01T00:00:00Z'));
  const limiter = makeAuthFailureLimiter({ failuresPerMinute, clock });
  const fail = (times: number, address = ADDRESS) => {
    for (let i = 0; i < times; i++) limiter.record(address, `Bearer smcp_bad${i}`, 401);
  };
  return { clock, limiter, fail };
}

describe('failed-authentication limiter', () => {
  it('lets an address through until its failures reach the limit, then refuses it for the rest of the minute', () => {
    const { clock, limiter, fail } = limiterOf(3);
    fail(2);
    expect(limiter.check(ADDRESS, 'Bearer smcp_new')).toBeUndefined();
    fail(1);
    expect(limiter.check(ADDRESS, 'Bearer smcp_new')).toEqual({ retryAfterSeconds: 60 });
    expect(limiter.check(ADDRESS, undefined)).toEqual({ retryAfterSeconds: 60 });
    clock.advance(59_001);
    expect(limiter.check(ADDRESS, 'Bearer smcp_new')).toEqual({ retryAfterSeconds: 1 });
    clock.advance(999);
    expect(limiter.check(ADDRESS, 'Bearer smcp_new')).toBeUndefined();
  });

  it('counts per address: another address is not refused', () => {
    const { limiter, fail } = limiterOf(3);
    fail(3);
    expect(limiter.check('198.51.100.1', 'Bearer smcp_new')).toBeUndefined();
  });

  it('the minute begins with the first failure, not with an earlier success', () => {
    const { clock, limiter, fail } = limiterOf(1);
    limiter.record(ADDRESS, GOOD, 200);
    clock.advance(50_000);
    fail(1);
    expect(limiter.check(ADDRESS, 'Bearer smcp_new')).toEqual({ retryAfterSeconds: 60 });
  });

  it('still lets a key through that authenticated from the address, until it fails itself', () => {
    const { limiter, fail } = limiterOf(3);
    limiter.record(ADDRESS, GOOD, 200);
    fail(3);
    expect(limiter.check(ADDRESS, GOOD)).toBeUndefined();
    limiter.record(ADDRESS, GOOD, 401);
    expect(limiter.check(ADDRESS, GOOD)).toBeDefined();
  });

  it.each([403, 404, 409, 422, 429, 201])('a %s answer proves the key', (status) => {
    const { limiter, fail } = limiterOf(1);
    limiter.record(ADDRESS, GOOD, status);
    fail(1);
    expect(limiter.check(ADDRESS, GOOD)).toBeUndefined();
  });

  it.each([413, 415, 500, 503])(
    'a %s answer proves nothing (it may come before the key is checked)',
    (status) => {
      const { limiter, fail } = limiterOf(1);
      limiter.record(ADDRESS, GOOD, status);
      fail(1);
      expect(limiter.check(ADDRESS, GOOD)).toBeDefined();
    },
  );

  it('trusts a proven key for 15 minutes', () => {
    const { clock, limiter, fail } = limiterOf(1);
    limiter.record(ADDRESS, GOOD, 200);
    clock.advance(15 * 60_000);
    fail(1);
    expect(limiter.check(ADDRESS, GOOD)).toBeDefined();
  });

  it('refuses a limit that is not a whole number of 1 or more', () => {
    const clock = fixedClock(0);
    expect(() => makeAuthFailureLimiter({ failuresPerMinute: 0, clock })).toThrow(RangeError);
    expect(() => makeAuthFailureLimiter({ failuresPerMinute: 1.5, clock })).toThrow(RangeError);
  });
});
