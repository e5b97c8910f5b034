import { describe, expect, it } from 'vitest';
import {
  calendarRange,
  dayKey,
  inMonth,
  mondayOf,
  weeksOf,
} from '../../../shared/dashboard/views/calendar-dates.js';

const NOW = Date.parse('2026-11-27T15:30:00Z');

/** The range as days: first shown, last shown (the day before `end`), the anchor, and the rows. */
function monthOf(date: string) {
  const range = calendarRange('month', date, NOW);
  const weeks = weeksOf(range.start, range.end);
  return {
    first: dayKey(range.start),
    last: dayKey(new Date(range.end.getTime() - 86_400_000)),
    anchor: dayKey(range.anchor),
    rows: weeks.length,
    mondays: weeks.every((week) => week[0]?.getUTCDay() === 1 && week.length === 7),
  };
}

describe('calendar dates: whole weeks, Monday first, in UTC', () => {
  it('shows a month starting on a Sunday from the Monday before: six rows, the 1st in the last column', () => {
    // November 2026: the 1st is a Sunday, the 30th a Monday.
    expect(monthOf('2026-11-14')).toEqual({
      first: '2026-10-26',
      last: '2026-12-06',
      anchor: '2026-11-01',
      rows: 6,
      mondays: true,
    });
  });

  it('shows a month starting on a Monday from its 1st', () => {
    // June 2026: Monday the 1st to Tuesday the 30th.
    expect(monthOf('2026-06-30')).toEqual({
      first: '2026-06-01',
      last: '2026-07-05',
      anchor: '2026-06-01',
      rows: 5,
      mondays: true,
    });
  });

  it('shows a 28-day February that starts on a Monday as exactly four rows, none of another month', () => {
    const february = monthOf('2021-02-10');
    expect(february).toEqual({
      first: '2021-02-01',
      last: '2021-02-28',
      anchor: '2021-02-01',
      rows: 4,
      mondays: true,
    });
    const range = calendarRange('month', '2021-02-10', NOW);
    const days = weeksOf(range.start, range.end).flat();
    expect(days.every((day) => inMonth(day, range.anchor))).toBe(true);
  });

  it('crosses the year at both ends: December 2026 into January 2027, January 2027 from December 2026', () => {
    expect(monthOf('2026-12-31')).toEqual({
      first: '2026-11-30',
      last: '2027-01-03',
      anchor: '2026-12-01',
      rows: 5,
      mondays: true,
    });
    expect(monthOf('2027-01-01')).toEqual({
      first: '2026-12-28',
      last: '2027-01-31',
      anchor: '2027-01-01',
      rows: 5,
      mondays: true,
    });
  });

  it("marks a grid's days of the months beside it as outside the month", () => {
    const range = calendarRange('month', '2027-01-15', NOW);
    const days = weeksOf(range.start, range.end).flat();
    const outside = days.filter((day) => !inMonth(day, range.anchor)).map(dayKey);
    expect(outside).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31']);
  });

  it('shows the week from its Monday, across a year boundary too', () => {
    const range = calendarRange('week', '2027-01-01', NOW);
    expect([dayKey(range.start), dayKey(range.end), dayKey(range.anchor)]).toEqual([
      '2026-12-28',
      '2027-01-04',
      '2026-12-28',
    ]);
    expect(dayKey(mondayOf(new Date('2026-11-29T23:59:00Z')))).toBe('2026-11-23');
  });

  it("falls back to today's week or month for a missing or malformed date", () => {
    expect(dayKey(calendarRange('week', undefined, NOW).start)).toBe('2026-11-23');
    expect(dayKey(calendarRange('month', '27/11/2026', NOW).anchor)).toBe('2026-11-01');
    expect(dayKey(calendarRange('month', '2026-13-45', NOW).anchor)).toBe('2026-11-01');
  });
});
