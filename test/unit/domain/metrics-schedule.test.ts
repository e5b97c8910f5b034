import { describe, expect, it } from 'vitest';
import {
  collectionDue,
  METRICS_RATE_LIMIT_BACKOFF_SECONDS,
  nextCollection,
  startCollection,
} from '../../../shared/domain/metrics-schedule.js';

const publishedAt = '2026-03-01T12:00:00.000Z';
const at = (hours: number) => Date.parse(publishedAt) + hours * 3600_000;
const iso = (hours: number) => new Date(at(hours)).toISOString();

describe('the metrics collection schedule', () => {
  it('starts an hour after publication', () => {
    expect(startCollection(publishedAt)).toEqual({ checks: 0, nextCollectAt: iso(1) });
  });

  it('reads at 1 h, 6 h, 24 h, 3 d, 7 d and 30 d, then stops', () => {
    const seen: string[] = [];
    let current = startCollection(publishedAt);
    for (;;) {
      const next = nextCollection(current, publishedAt, { kind: 'read' }, Date.parse(current.nextCollectAt));
      if (!next) break;
      seen.push(next.nextCollectAt);
      current = next;
    }
    expect(seen).toEqual([iso(6), iso(24), iso(72), iso(168), iso(720)]);
    expect(current.checks).toBe(5);
  });

  it('skips slots that passed while the post waited (a late read goes to the next slot after it)', () => {
    expect(nextCollection(startCollection(publishedAt), publishedAt, { kind: 'read' }, at(30))).toEqual({
      checks: 1,
      nextCollectAt: iso(72),
    });
  });

  it('retries a rate-limited read after the wait the network said, or a back-off', () => {
    const first = startCollection(publishedAt);
    const told = nextCollection(
      first,
      publishedAt,
      { kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 120 },
      at(1),
    );
    expect(told?.nextCollectAt).toBe(new Date(at(1) + 120_000).toISOString());
    const untold = nextCollection(first, publishedAt, { kind: 'failed', failure: 'rate_limited' }, at(1));
    expect(untold?.nextCollectAt).toBe(
      new Date(at(1) + METRICS_RATE_LIMIT_BACKOFF_SECONDS * 1000).toISOString(),
    );
  });

  it('never retries past the next slot: that slot does the read', () => {
    const first = startCollection(publishedAt);
    const long = nextCollection(
      first,
      publishedAt,
      { kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 8 * 3600 },
      at(1),
    );
    expect(long?.nextCollectAt).toBe(iso(6));
  });

  it('after the last slot, retries a rate limit within a day, then ends', () => {
    const last = { checks: 5, nextCollectAt: iso(720) };
    const soon = nextCollection(
      last,
      publishedAt,
      { kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 60 },
      at(720),
    );
    expect(soon?.nextCollectAt).toBe(new Date(at(720) + 60_000).toISOString());
    expect(
      nextCollection(
        last,
        publishedAt,
        { kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 2 * 86400 },
        at(720),
      ),
    ).toBeUndefined();
  });

  it('goes on to the next slot after an unavailable network', () => {
    expect(
      nextCollection(
        startCollection(publishedAt),
        publishedAt,
        { kind: 'failed', failure: 'unavailable' },
        at(1),
      )?.nextCollectAt,
    ).toBe(iso(6));
  });

  it.each(['missing_scopes', 'auth_failed', 'not_found'] as const)('stops on %s', (failure) => {
    expect(
      nextCollection(startCollection(publishedAt), publishedAt, { kind: 'failed', failure }, at(1)),
    ).toBeUndefined();
  });

  it('says a collection is due at its time, or within a batch window of it', () => {
    const state = { readings: [], collection: startCollection(publishedAt) };
    expect(collectionDue(state, at(1) - 1)).toBe(false);
    expect(collectionDue(state, at(1))).toBe(true);
    expect(collectionDue(state, at(1) - 60_000, 15 * 60_000)).toBe(true);
    expect(collectionDue({ readings: [] }, at(1))).toBe(false);
  });
});
