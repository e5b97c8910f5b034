/** The calendar's date arithmetic, all in UTC (the dashboard's times are UTC throughout). */

export const DAY_MS = 86_400_000;
const WEEK_DAYS = 7;

export type CalendarView = 'week' | 'month';

export interface CalendarRange {
  /** The first day shown, UTC midnight: always a Monday. */
  start: Date;
  /** The day after the last one shown (a Monday). */
  end: Date;
  /** The day the view is of, which its address names: the month's 1st, or the week's Monday. */
  anchor: Date;
}

/** `2026-11-27` for a time on that day (UTC). */
export const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/** The Monday on or before `day`. */
export function mondayOf(day: Date): Date {
  const midnight = Math.floor(day.getTime() / DAY_MS) * DAY_MS;
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % WEEK_DAYS;
  return new Date(midnight - sinceMonday * DAY_MS);
}

/** The 1st of the month `months` away from `day`'s (0: its own). */
export function firstOfMonth(day: Date, months = 0): Date {
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + months, 1));
}

/**
 * The range a view shows around `date` (YYYY-MM-DD, UTC; today when absent or malformed). A week is
 * Monday to Sunday. A month is whole weeks, Monday first: from the Monday on or before its 1st to
 * the Sunday on or after its last day, so the grid's first and last rows show days of the months
 * beside it.
 */
export function calendarRange(view: CalendarView, date: string | undefined, now: number): CalendarRange {
  const parsed = date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
  const day = new Date(Number.isNaN(parsed) ? Math.floor(now / DAY_MS) * DAY_MS : parsed);
  if (view === 'month') {
    const anchor = firstOfMonth(day);
    const lastDay = new Date(firstOfMonth(day, 1).getTime() - DAY_MS);
    return {
      start: mondayOf(anchor),
      end: new Date(mondayOf(lastDay).getTime() + WEEK_DAYS * DAY_MS),
      anchor,
    };
  }
  const start = mondayOf(day);
  return { start, end: new Date(start.getTime() + WEEK_DAYS * DAY_MS), anchor: start };
}

/** The days from `start` up to `end` (excluded), in rows of seven. */
export function weeksOf(start: Date, end: Date): Date[][] {
  const weeks: Date[][] = [];
  for (let at = start.getTime(); at < end.getTime(); at += WEEK_DAYS * DAY_MS) {
    const week: Date[] = [];
    for (let day = 0; day < WEEK_DAYS; day += 1) week.push(new Date(at + day * DAY_MS));
    weeks.push(week);
  }
  return weeks;
}

/** Whether `day` lies in the month of `anchor`. */
export const inMonth = (day: Date, anchor: Date) =>
  day.getUTCFullYear() === anchor.getUTCFullYear() && day.getUTCMonth() === anchor.getUTCMonth();
