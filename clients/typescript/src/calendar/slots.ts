import { Temporal } from 'temporal-polyfill';
import { parseClock } from './local-time.js';
import type { SlotRule, Weekday } from './model.js';

/** Temporal's dayOfWeek (1 = Monday) to the file's weekday names, as RFC 5545 spells them. */
const WEEKDAYS: readonly Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

export function isWeekday(value: string): value is Weekday {
  return (WEEKDAYS as readonly string[]).includes(value);
}

/**
 * Every slot of the rules (one account's) strictly after `after` and at or before `until`, in time
 * order, without duplicates (two rules naming the same instant give one slot).
 *
 * Each rule's times are wall-clock times in its own zone, so 09:00 stays 09:00 across a DST change.
 * A time that does not exist on a spring-forward night moves forward by the gap (`compatible`, as
 * a fixed `at` does), so that night still has its slot.
 */
export function slotInstants(rules: readonly SlotRule[], after: Date, until: Date): Temporal.ZonedDateTime[] {
  const byInstant = new Map<number, Temporal.ZonedDateTime>();
  for (const rule of rules) {
    for (const slot of ruleInstants(rule, after, until)) {
      if (!byInstant.has(slot.epochMilliseconds)) byInstant.set(slot.epochMilliseconds, slot);
    }
  }
  return [...byInstant.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
}

function ruleInstants(rule: SlotRule, after: Date, until: Date): Temporal.ZonedDateTime[] {
  const days = new Set(rule.days);
  const clocks = rule.times.map(parseClock).filter((clock) => clock !== undefined);
  const first = Temporal.Instant.fromEpochMilliseconds(after.getTime())
    .toZonedDateTimeISO(rule.timezone)
    .toPlainDate();
  const last = Temporal.Instant.fromEpochMilliseconds(until.getTime())
    .toZonedDateTimeISO(rule.timezone)
    .toPlainDate();
  const slots: Temporal.ZonedDateTime[] = [];
  for (let day = first; Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) {
    const weekday = WEEKDAYS[day.dayOfWeek - 1];
    if (weekday === undefined || !days.has(weekday)) continue;
    for (const { hour, minute } of clocks) {
      const slot = day
        .toPlainDateTime({ hour, minute })
        .toZonedDateTime(rule.timezone, { disambiguation: 'compatible' });
      const at = slot.epochMilliseconds;
      if (at > after.getTime() && at <= until.getTime()) slots.push(slot);
    }
  }
  return slots;
}
