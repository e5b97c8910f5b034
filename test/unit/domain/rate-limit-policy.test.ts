import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  limitFor,
  PLAN_TIERS,
  RATE_LIMIT_FAMILIES,
  secondsUntilReset,
  WINDOW_MS,
  windowAt,
} from '../../../shared/domain/rate-limit-policy.js';

describe('limitFor', () => {
  it.each([
    ['posts_create', 'free', 120],
    ['posts_create', 'pro', 600],
    ['posts_create', 'enterprise', 2400],
    ['posts_read', 'free', 600],
    ['posts_read', 'pro', 3000],
    ['posts_read', 'enterprise', 12000],
    ['media_uploads', 'free', 60],
    ['media_uploads', 'pro', 300],
    ['media_uploads', 'enterprise', 1200],
    ['other', 'free', 600],
    ['other', 'pro', 3000],
    ['other', 'enterprise', 12000],
  ] as const)('gives %s on the %s tier %i requests per minute', (family, tier, expected) => {
    expect(limitFor(family, tier)).toBe(expected);
  });

  it('has a row above for every family and tier', () => {
    expect(RATE_LIMIT_FAMILIES.length * PLAN_TIERS.length).toBe(12);
  });
});

describe('windowAt', () => {
  it('starts a window exactly on the minute', () => {
    expect(windowAt(120_000)).toEqual({ startMs: 120_000, endMs: 180_000 });
  });

  it('keeps the last millisecond of a minute in that minute', () => {
    expect(windowAt(179_999)).toEqual({ startMs: 120_000, endMs: 180_000 });
  });

  it('is a one-minute window aligned on the minute that contains now', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8.64e15 }), (now) => {
        // Act
        const window = windowAt(now);

        // Assess
        expect(window.startMs).toBeLessThanOrEqual(now);
        expect(now).toBeLessThan(window.endMs);
        expect(window.endMs - window.startMs).toBe(WINDOW_MS);
        expect(window.startMs % 60_000 === 0).toBe(true);
      }),
    );
  });
});

describe('secondsUntilReset', () => {
  it('is 60 at the start of a window', () => {
    expect(secondsUntilReset(windowAt(60_000), 60_000)).toBe(60);
  });

  it('is 1 in the last second of a window, never 0', () => {
    expect(secondsUntilReset(windowAt(119_999), 119_999)).toBe(1);
    expect(secondsUntilReset(windowAt(119_000), 119_000)).toBe(1);
  });

  it('rounds a part second up', () => {
    expect(secondsUntilReset(windowAt(118_999), 118_999)).toBe(2);
  });

  it('is at least 1 for a window that already ended', () => {
    expect(secondsUntilReset({ startMs: 0, endMs: 60_000 }, 90_000)).toBe(1);
  });

  it('is a whole number of seconds from 1 to 60 for any time in its window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8.64e15 }), (now) => {
        // Act
        const seconds = secondsUntilReset(windowAt(now), now);

        // Assess
        expect(Number.isInteger(seconds)).toBe(true);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(60);
      }),
    );
  });
});
