import { describe, expect, it } from 'vitest';
import { displayLocal, localMinute, parseAt, parseClock } from '../../src/calendar/local-time.js';
import { MAX_OCCURRENCES_PER_ENTRY, occurrencesBetween } from '../../src/calendar/recurrence.js';
import { slotInstants } from '../../src/calendar/slots.js';

const utc = (zoned: { epochMilliseconds: number }[]): string[] =>
  zoned.map((time) => new Date(time.epochMilliseconds).toISOString());

describe('occurrencesBetween', () => {
  it('skips an occurrence whose local time falls in the spring-forward gap (RFC 5545), keeping 02:30 on the other days', () => {
    const occurrences = occurrencesBetween(
      { rule: 'FREQ=DAILY;COUNT=4', start: '2026-03-27T02:30' },
      'Europe/Berlin',
      new Date('2026-03-01T00:00:00Z'),
      new Date('2026-04-30T00:00:00Z'),
    );
    expect(occurrences.map(localMinute)).toEqual([
      '2026-03-27T02:30',
      '2026-03-28T02:30',
      '2026-03-30T02:30',
      '2026-03-31T02:30',
    ]);
  });

  it('takes the first of a local time that happens twice (the fall-back hour)', () => {
    const occurrences = occurrencesBetween(
      { rule: 'FREQ=DAILY;COUNT=3', start: '2026-10-24T02:30' },
      'Europe/Berlin',
      new Date('2026-10-01T00:00:00Z'),
      new Date('2026-11-30T00:00:00Z'),
    );
    expect(utc(occurrences)).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('refuses a rule that gives more posts than a horizon should hold', () => {
    expect(() =>
      occurrencesBetween(
        { rule: 'FREQ=HOURLY', start: '2026-01-01T00:00' },
        'UTC',
        new Date('2026-01-01T00:00:00Z'),
        new Date('2026-03-01T00:00:00Z'),
      ),
    ).toThrow(String(MAX_OCCURRENCES_PER_ENTRY));
  });

  it('refuses a pasted RRULE: property line or a DTSTART', () => {
    const window = [new Date('2026-01-01T00:00:00Z'), new Date('2026-01-02T00:00:00Z')] as const;
    expect(() =>
      occurrencesBetween({ rule: 'RRULE:FREQ=DAILY', start: '2026-01-01T09:00' }, 'UTC', ...window),
    ).toThrow(/RRULE value/);
    expect(() =>
      occurrencesBetween(
        { rule: 'FREQ=DAILY\nDTSTART:20260101T090000Z', start: '2026-01-01T09:00' },
        'UTC',
        ...window,
      ),
    ).toThrow(/RRULE value/);
  });
});

describe('slotInstants', () => {
  it('merges rules of one account in time order, one slot per instant, within (after, until]', () => {
    const slots = slotInstants(
      [
        { accountId: 'a', timezone: 'Europe/Berlin', days: ['MO', 'TU'], times: ['13:00', '09:00'] },
        { accountId: 'a', timezone: 'UTC', days: ['MO'], times: ['08:00', '10:00'] },
      ],
      new Date('2026-12-07T08:00:00Z'),
      new Date('2026-12-08T08:00:00Z'),
    );
    // Monday 09:00 Berlin is 08:00Z: both rules name it, and it is `after` itself, so it is left out.
    expect(utc(slots)).toEqual([
      '2026-12-07T10:00:00.000Z',
      '2026-12-07T12:00:00.000Z',
      '2026-12-08T08:00:00.000Z',
    ]);
    expect(slots.map(displayLocal)).toEqual([
      '2026-12-07 10:00 UTC',
      '2026-12-07 13:00 Europe/Berlin',
      '2026-12-08 09:00 Europe/Berlin',
    ]);
  });

  it('moves a slot in the spring-forward gap forward, so that night keeps its slot', () => {
    const slots = slotInstants(
      [{ accountId: 'a', timezone: 'Europe/Berlin', days: ['SU'], times: ['02:30'] }],
      new Date('2026-03-28T00:00:00Z'),
      new Date('2026-03-30T00:00:00Z'),
    );
    expect(slots.map(displayLocal)).toEqual(['2026-03-29 03:30 Europe/Berlin']);
  });
});

describe('local times', () => {
  it('reads local times, times with offsets, and refuses the rest', () => {
    expect(displayLocal(parseAt('2026-12-01T09:00', 'Asia/Kolkata'))).toBe('2026-12-01 09:00 Asia/Kolkata');
    expect(displayLocal(parseAt('2026-12-01T09:00:00.000Z', 'Asia/Kolkata'))).toBe(
      '2026-12-01 14:30 Asia/Kolkata',
    );
    expect(() => parseAt('2026-12-01 09:00', 'UTC')).toThrow(/neither/);
    expect(() => parseAt('2026-02-30T09:00', 'UTC')).toThrow(/not a valid date/);
    expect(parseClock('23:59')).toEqual({ hour: 23, minute: 59 });
    expect(parseClock('24:00')).toBeUndefined();
    expect(parseClock('9:00')).toBeUndefined();
  });
});
