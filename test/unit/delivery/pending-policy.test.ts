import { describe, expect, it } from 'vitest';
import {
  decideAfterPending,
  MAX_PENDING_CHECKS,
  MAX_PENDING_MS,
  PENDING_CHECK_DEFAULT_SECONDS,
  PENDING_CHECK_MAX_SECONDS,
  PENDING_CHECK_MIN_SECONDS,
} from '../../../shared/domain/pending-policy.js';

const NOW = Date.parse('2030-01-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const answer = (checkAfterSeconds: number) => ({ checkAfterSeconds, stage: 'media_processing' });

describe('after a pending answer', () => {
  it('checks again after the network’s wait, counting the first answer from now', () => {
    expect(decideAfterPending(undefined, answer(20), NOW)).toEqual({
      kind: 'check',
      delaySeconds: 20,
      pending: { checks: 1, since: iso(NOW), stage: 'media_processing', checkDue: true },
    });
  });

  it('keeps counting from the first answer', () => {
    const previous = { checks: 4, since: iso(NOW - 60_000), stage: 'uploading', checkDue: false };
    const decision = decideAfterPending(previous, answer(10), NOW);
    expect(decision).toMatchObject({ kind: 'check', pending: { checks: 5, since: iso(NOW - 60_000) } });
  });

  it.each([
    [0, PENDING_CHECK_MIN_SECONDS],
    [-3, PENDING_CHECK_MIN_SECONDS],
    [2.2, PENDING_CHECK_MIN_SECONDS],
    [12.1, 13],
    [86_400, PENDING_CHECK_MAX_SECONDS],
    [Number.NaN, PENDING_CHECK_DEFAULT_SECONDS],
    [Number.POSITIVE_INFINITY, PENDING_CHECK_DEFAULT_SECONDS],
  ])('keeps a wait of %s s within bounds: %s s', (asked, expected) => {
    expect(decideAfterPending(undefined, answer(asked), NOW)).toMatchObject({ delaySeconds: expected });
  });

  it('never waits past the deadline: the last check falls on it', () => {
    const previous = { checks: 3, since: iso(NOW - MAX_PENDING_MS + 40_000), stage: 's', checkDue: true };
    expect(decideAfterPending(previous, answer(600), NOW)).toMatchObject({ kind: 'check', delaySeconds: 40 });
  });

  it(`fails after ${MAX_PENDING_CHECKS} checks, retryable`, () => {
    const previous = { checks: MAX_PENDING_CHECKS, since: iso(NOW - 60_000), stage: 's', checkDue: true };
    expect(decideAfterPending({ ...previous, checks: MAX_PENDING_CHECKS - 1 }, answer(5), NOW).kind).toBe(
      'check',
    );
    expect(decideAfterPending(previous, answer(5), NOW)).toEqual({
      kind: 'fail',
      error: {
        origin: 'platform',
        code: 'PLATFORM_PROCESSING_TIMEOUT',
        message: `The network was still processing the post after ${MAX_PENDING_CHECKS} checks over 1 min.`,
        retryable: true,
      },
    });
  });

  it('fails two hours after the first pending answer, however few the checks', () => {
    const previous = { checks: 2, since: iso(NOW - MAX_PENDING_MS), stage: 's', checkDue: true };
    expect(decideAfterPending(previous, answer(5), NOW)).toMatchObject({
      kind: 'fail',
      error: { code: 'PLATFORM_PROCESSING_TIMEOUT', retryable: true },
    });
  });
});
