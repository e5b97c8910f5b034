import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  nextWebhookAttempt,
  SQS_MAX_DELAY_SECONDS,
  sqsDelayFor,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_SCHEDULE,
} from '../../../shared/domain/webhooks/retry-schedule.js';

const HOUR_MS = 3_600_000;
const FIRST = Date.UTC(2030, 0, 1, 12);
const ATTEMPT_MS = 5_000;

/**
 * Plays one delivery that never succeeds under an injected clock: each attempt takes `attemptMs`
 * (up to the 5 s time-out) and the next is made exactly when it is due. Returns the attempt times.
 */
function playUntilGiveUp(random: () => number, attemptMs = ATTEMPT_MS): number[] {
  const times = [FIRST];
  for (;;) {
    const attempt = times.length;
    const failedAt = (times[attempt - 1] ?? FIRST) + attemptMs;
    const next = nextWebhookAttempt(attempt, FIRST, failedAt, random);
    if (next.kind === 'give_up') return times;
    expect(next.attempt).toBe(attempt + 1);
    expect(next.delaySeconds).toBe(Math.ceil((next.atMs - failedAt) / 1000));
    times.push(next.atMs);
  }
}

describe('the webhook retry schedule', () => {
  it.each([
    ['earliest', () => 0],
    ['middle', () => 0.5],
    ['latest', () => 0.999_999],
  ])('with the %s jitter, reaches about 24 h and then gives up', (_name, random) => {
    // Act
    const times = playUntilGiveUp(random);

    // Assess
    expect(times).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    const span = (times.at(-1) ?? FIRST) - FIRST;
    expect(span).toBeGreaterThanOrEqual(23 * HOUR_MS);
    expect(span).toBeLessThanOrEqual(25 * HOUR_MS);
  });

  it('retries first within about 30 s of the failure', () => {
    for (const random of [() => 0, () => 0.5, () => 0.999_999]) {
      const next = nextWebhookAttempt(1, FIRST, FIRST + ATTEMPT_MS, random);
      expect(next.kind).toBe('retry');
      if (next.kind !== 'retry') return;
      expect(next.atMs - FIRST).toBeLessThanOrEqual(35_000);
      expect(next.delaySeconds).toBeLessThanOrEqual(35);
    }
  });

  it('waits longer before each retry than before the one before, and keeps each within its jitter', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 0.999_999, noNaN: true }), { minLength: 1 }), (draws) => {
        let i = 0;
        const random = () => draws[i++ % draws.length] ?? 0;
        const times = playUntilGiveUp(random);
        for (let n = 1; n < times.length; n++) {
          const nominal = WEBHOOK_RETRY_SCHEDULE[n];
          if (!nominal) throw new Error(`no row for attempt ${n + 1}`);
          // Monotone: strictly after the previous attempt, by at least the minimum gap.
          expect(times[n] ?? 0).toBeGreaterThanOrEqual((times[n - 1] ?? 0) + ATTEMPT_MS + 30_000);
          // Bounded: within ±10 % of its own wait of its nominal time (or the minimum gap, if later).
          const anchored = FIRST + nominal.offsetSeconds * 1000;
          const slack = 0.1 * nominal.delaySeconds * 1000;
          const floor = (times[n - 1] ?? 0) + ATTEMPT_MS + 30_000;
          expect(times[n] ?? 0).toBeGreaterThanOrEqual(anchored - slack - 1);
          expect(times[n] ?? 0).toBeLessThanOrEqual(Math.max(anchored + slack, floor) + 1);
        }
      }),
    );
  });

  it('spreads retries that failed together', () => {
    const early = nextWebhookAttempt(5, FIRST, FIRST + HOUR_MS / 6, () => 0);
    const late = nextWebhookAttempt(5, FIRST, FIRST + HOUR_MS / 6, () => 0.999_999);
    if (early.kind !== 'retry' || late.kind !== 'retry') throw new Error('expected retries');
    // Attempt 6 waits 8 min: ±48 s.
    expect(late.atMs - early.atMs).toBeGreaterThan(95_000);
    expect(late.atMs - early.atMs).toBeLessThanOrEqual(96_000);
  });

  it('anchors on the first attempt, so slow attempts do not push the last one later', () => {
    const fast = playUntilGiveUp(() => 0.5, 10);
    const slow = playUntilGiveUp(() => 0.5, 5_000);
    expect(slow.at(-1)).toBe(fast.at(-1));
  });

  it('when the service is behind, still leaves the receiver the minimum gap', () => {
    // Attempt 3 was due at 1 min 30 s but failed only after an hour-long backlog.
    const next = nextWebhookAttempt(3, FIRST, FIRST + HOUR_MS, () => 0.5);
    expect(next).toEqual({ kind: 'retry', attempt: 4, atMs: FIRST + HOUR_MS + 30_000, delaySeconds: 30 });
  });

  it('gives up after the last attempt', () => {
    expect(nextWebhookAttempt(WEBHOOK_MAX_ATTEMPTS, FIRST, FIRST + 25 * HOUR_MS, () => 0.5)).toEqual({
      kind: 'give_up',
    });
    expect(nextWebhookAttempt(WEBHOOK_MAX_ATTEMPTS + 3, FIRST, FIRST, () => 0.5)).toEqual({
      kind: 'give_up',
    });
  });

  it('refuses an attempt number that is not a count from 1', () => {
    expect(() => nextWebhookAttempt(0, FIRST, FIRST, () => 0.5)).toThrow(RangeError);
    expect(() => nextWebhookAttempt(1.5, FIRST, FIRST, () => 0.5)).toThrow(RangeError);
  });

  it('is the documented table: doubling from 30 s, capped at 4 h, 15 attempts', () => {
    expect(WEBHOOK_RETRY_SCHEDULE.map((row) => row.delaySeconds)).toEqual([
      0, 30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 14_400, 14_400, 14_400, 14_400, 14_400,
    ]);
    expect(WEBHOOK_RETRY_SCHEDULE.at(-1)).toEqual({
      attempt: 15,
      delaySeconds: 14_400,
      offsetSeconds: 87_330,
    });
    expect(Object.isFrozen(WEBHOOK_RETRY_SCHEDULE)).toBe(true);
  });
});

describe('sqsDelayFor', () => {
  it('sends a short wait in one hop, rounded up to whole seconds', () => {
    expect(sqsDelayFor(30_000)).toEqual({ delaySeconds: 30, remainingMs: 0 });
    expect(sqsDelayFor(29_001)).toEqual({ delaySeconds: 30, remainingMs: 0 });
    expect(sqsDelayFor(900_000)).toEqual({ delaySeconds: 900, remainingMs: 0 });
  });

  it('sends nothing to wait for at once', () => {
    expect(sqsDelayFor(0)).toEqual({ delaySeconds: 0, remainingMs: 0 });
    expect(sqsDelayFor(-5_000)).toEqual({ delaySeconds: 0, remainingMs: 0 });
  });

  it('cuts a long wait into 15-minute hops, the message re-sent with what remains', () => {
    expect(sqsDelayFor(4 * HOUR_MS)).toEqual({ delaySeconds: 900, remainingMs: 4 * HOUR_MS - 900_000 });
  });

  it('reaches any wait in hops of at most 900 s, never early and less than a second late', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 * HOUR_MS }), (waitMs) => {
        let remaining = waitMs;
        let waited = 0;
        let hops = 0;
        for (;;) {
          const hop = sqsDelayFor(remaining);
          expect(hop.delaySeconds).toBeGreaterThanOrEqual(0);
          expect(hop.delaySeconds).toBeLessThanOrEqual(SQS_MAX_DELAY_SECONDS);
          expect(Number.isInteger(hop.delaySeconds)).toBe(true);
          waited += hop.delaySeconds * 1000;
          hops++;
          if (hop.remainingMs === 0) break;
          remaining = hop.remainingMs;
        }
        expect(waited).toBeGreaterThanOrEqual(waitMs);
        expect(waited - waitMs).toBeLessThan(1000);
        expect(hops).toBe(Math.max(1, Math.ceil(waitMs / 900_000)));
      }),
    );
  });
});
