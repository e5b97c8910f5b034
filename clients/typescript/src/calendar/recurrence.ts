import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';
import { localToZoned } from './local-time.js';
import type { Recurrence } from './model.js';

/**
 * A calendar posts at most hourly: finer rules (MINUTELY, SECONDLY) would expand into thousands of
 * posts over a horizon, which is a typo far more often than an intent.
 */
const ALLOWED_FREQUENCIES = new Set(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY']);

/** More occurrences than this in one horizon is refused rather than planned. */
export const MAX_OCCURRENCES_PER_ENTRY = 1000;

/**
 * The entry's rule with DTSTART = `start` in `zone` (DTSTART;TZID=zone). The library generates in
 * the zone's wall clock, so every occurrence keeps DTSTART's local time across DST changes; an
 * occurrence whose local time does not exist (a DST gap) is skipped, as RFC 5545 says.
 * @throws Error (RangeError or the library's) whose message says what is wrong with the rule.
 */
export function buildRule(repeat: Recurrence, zone: string): RRuleTemporal {
  const rule = repeat.rule.trim();
  // DTSTART is `start`; a pasted ICS property line or a second property would be ambiguous.
  if (/[\r\n]/.test(rule) || /^(RRULE|DTSTART)[:;]/i.test(rule)) {
    throw new RangeError(
      'give only the RRULE value, e.g. FREQ=WEEKLY;BYDAY=MO (the start goes in repeat.start)',
    );
  }
  const frequency = /(?:^|;)FREQ=([A-Z]+)/i.exec(rule)?.[1]?.toUpperCase();
  if (frequency !== undefined && !ALLOWED_FREQUENCIES.has(frequency)) {
    throw new RangeError(`FREQ=${frequency} is finer than a calendar posts; use HOURLY or coarser`);
  }
  const dtstart = localToZoned(repeat.start, zone);
  return new RRuleTemporal({ rruleString: rule, dtstart, tzid: zone, temporal: Temporal });
}

/**
 * The occurrences strictly after `after` and at or before `until`, in time order.
 * @throws RangeError when there are more than MAX_OCCURRENCES_PER_ENTRY.
 */
export function occurrencesBetween(
  repeat: Recurrence,
  zone: string,
  after: Date,
  until: Date,
): Temporal.ZonedDateTime[] {
  const rule = buildRule(repeat, zone);
  const afterMs = after.getTime();
  const occurrences = rule
    .between(after, until, true)
    .filter((occurrence) => occurrence.epochMilliseconds > afterMs);
  if (occurrences.length > MAX_OCCURRENCES_PER_ENTRY) {
    throw new RangeError(
      `the rule gives ${occurrences.length} posts within the horizon, more than ${MAX_OCCURRENCES_PER_ENTRY}`,
    );
  }
  return occurrences;
}
