import { describe, expect, it } from 'vitest';
import {
  deliveryEffects,
  SCHEDULE_LEAD_MS,
  WAIT_IN_PLACE_MS,
} from '../../../shared/domain/delivery-effects.js';
import { aPost } from './support.js';

const NOW = Date.UTC(2030, 0, 1, 12);
const at = (msFromNow: number) => new Date(NOW + msFromNow).toISOString();

describe('deliveryEffects', () => {
  it('a new queued post gets a message now', () => {
    expect(deliveryEffects(undefined, aPost({ status: 'queued' }), NOW)).toEqual({
      enqueue: { delaySeconds: 0 },
    });
  });

  it('a retry gets a message delayed to its next attempt', () => {
    const before = aPost({ status: 'publishing', version: 2 });
    const after = aPost({ status: 'queued', version: 3, delivery: { nextAttemptAt: at(42_500) } });
    expect(deliveryEffects(before, after, NOW)).toEqual({ enqueue: { delaySeconds: 43 } });
  });

  it('a post scheduled more than 15 minutes ahead gets a schedule a minute early, and no message', () => {
    const scheduledAt = at(3_600_000);
    expect(deliveryEffects(undefined, aPost({ status: 'scheduled', scheduledAt }), NOW)).toEqual({
      schedule: { fireAt: new Date(Date.parse(scheduledAt) - SCHEDULE_LEAD_MS) },
    });
  });

  it('a post scheduled within 15 minutes gets a delayed message instead of a schedule', () => {
    expect(deliveryEffects(undefined, aPost({ status: 'scheduled', scheduledAt: at(600_000) }), NOW)).toEqual(
      {
        enqueue: { delaySeconds: 597 },
      },
    );
  });

  it('a scheduled post’s message comes three to four seconds before its time, for the worker to align', () => {
    // 10.7 s away: the message comes 3.7 s early, more than the worker waits in place for, so the
    // worker puts it back aligned (hold-until-due), whatever the stream's and the send's delay.
    const early = (scheduledIn: number) => {
      const effects = deliveryEffects(
        undefined,
        aPost({ status: 'scheduled', scheduledAt: at(scheduledIn) }),
        NOW,
      );
      return scheduledIn - (effects.enqueue?.delaySeconds ?? Number.NaN) * 1000;
    };
    expect(early(10_700)).toBe(3700);
    expect(early(10_000)).toBe(3000);
    expect(early(900_999)).toBe(3999);
    for (const scheduledIn of [4000, 10_700, 60_001, 900_999]) {
      expect(early(scheduledIn)).toBeGreaterThan(WAIT_IN_PLACE_MS);
      expect(early(scheduledIn)).toBeLessThan(4000);
    }
    // Closer than that: no delay; the worker aligns or waits in place.
    expect(early(2500)).toBe(2500);
  });

  it('the 15 minutes before a post’s time go by a message, past them by a schedule', () => {
    expect(
      deliveryEffects(undefined, aPost({ status: 'scheduled', scheduledAt: at(900_999) }), NOW),
    ).toHaveProperty('enqueue');
    expect(
      deliveryEffects(undefined, aPost({ status: 'scheduled', scheduledAt: at(901_000) }), NOW),
    ).toHaveProperty('schedule');
  });

  it('rescheduling moves the schedule; an edit that keeps the time does nothing', () => {
    const before = aPost({ status: 'scheduled', scheduledAt: at(3_600_000), version: 1 });
    const moved = aPost({ status: 'scheduled', scheduledAt: at(7_200_000), version: 2 });
    expect(deliveryEffects(before, moved, NOW).schedule?.fireAt.toISOString()).toBe(
      new Date(NOW + 7_200_000 - SCHEDULE_LEAD_MS).toISOString(),
    );
    expect(deliveryEffects(before, aPost({ ...before, content: 'edited', version: 2 }), NOW)).toEqual({});
  });

  it('rescheduling from far to near replaces the schedule with a message', () => {
    const before = aPost({ status: 'scheduled', scheduledAt: at(3_600_000) });
    const after = aPost({ status: 'scheduled', scheduledAt: at(60_000), version: 2 });
    expect(deliveryEffects(before, after, NOW)).toEqual({ enqueue: { delaySeconds: 57 }, unschedule: true });
  });

  it.each(['cancelled', 'draft', 'pending_approval'] as const)(
    'leaving scheduled for %s removes the schedule',
    (status) => {
      const before = aPost({ status: 'scheduled', scheduledAt: at(3_600_000) });
      expect(deliveryEffects(before, aPost({ ...before, status, version: 2 }), NOW)).toEqual({
        unschedule: true,
      });
    },
  );

  it('the worker claiming a scheduled post touches no schedule (it fired and deleted itself)', () => {
    const before = aPost({ status: 'scheduled', scheduledAt: at(0) });
    expect(deliveryEffects(before, aPost({ ...before, status: 'publishing', version: 2 }), NOW)).toEqual({});
  });

  it('publishing, published and failed need nothing', () => {
    const before = aPost({ status: 'publishing' });
    expect(deliveryEffects(before, aPost({ status: 'published', version: 2 }), NOW)).toEqual({});
    expect(deliveryEffects(before, aPost({ status: 'failed', version: 2 }), NOW)).toEqual({});
  });
});
