import { Temporal } from 'temporal-polyfill';

/** A wall-clock time without a zone, as the file writes `at` and `repeat.start`: `2026-12-01T09:00`. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
/** A time that names its own instant: it ends in Z or in an offset (`+01:00`, `-0500`). */
const WITH_OFFSET = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether Temporal knows the IANA zone (the file's, an entry's or a slot rule's). */
export function isTimeZone(zone: string): boolean {
  try {
    Temporal.PlainDate.from('2000-01-01').toZonedDateTime(zone);
    return true;
  } catch {
    return false;
  }
}

export function isLocalDateTime(text: string): boolean {
  return LOCAL_DATE_TIME.test(text);
}

/**
 * A local wall-clock time in the zone. A time that does not exist there (it falls in a DST gap,
 * e.g. 02:30 on the spring-forward night) moves forward by the gap's length, as `compatible`
 * disambiguation does (RFC 5545 does the same for DTSTART); a time that exists twice (the
 * fall-back hour) is the earlier of the two.
 * @throws RangeError with a message for the file's reader when the text is no such time.
 */
export function localToZoned(text: string, zone: string): Temporal.ZonedDateTime {
  if (!isLocalDateTime(text)) throw new RangeError(`"${text}" is not a local time YYYY-MM-DDTHH:MM`);
  let local: Temporal.PlainDateTime;
  try {
    local = Temporal.PlainDateTime.from(text, { overflow: 'reject' });
  } catch {
    throw new RangeError(`"${text}" is not a valid date and time`);
  }
  return local.toZonedDateTime(zone, { disambiguation: 'compatible' });
}

/**
 * An entry's `at`: with Z or an offset it is that instant (shown in `zone`); without, a local time
 * in `zone` (see localToZoned).
 * @throws RangeError when the text is neither.
 */
export function parseAt(text: string, zone: string): Temporal.ZonedDateTime {
  if (isLocalDateTime(text)) return localToZoned(text, zone);
  if (!WITH_OFFSET.test(text)) {
    throw new RangeError(`"${text}" is neither a local time YYYY-MM-DDTHH:MM nor a time with Z or an offset`);
  }
  try {
    return Temporal.Instant.from(text).toZonedDateTimeISO(zone);
  } catch {
    throw new RangeError(`"${text}" is not a valid date and time`);
  }
}

/** `HH:MM` (24-hour) as hour and minute, or undefined when it is not one. */
export function parseClock(text: string): { hour: number; minute: number } | undefined {
  const match = CLOCK.exec(text);
  if (!match) return undefined;
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/** The service's form of a time: UTC with milliseconds and Z, as it returns `scheduledAt`. */
export function toServiceTime(time: Temporal.ZonedDateTime | Temporal.Instant): string {
  return new Date(time.epochMilliseconds).toISOString();
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** `YYYY-MM-DDTHH:MM` of the wall clock: the suffix of an occurrence's externalId. */
export function localMinute(time: Temporal.ZonedDateTime): string {
  return `${time.year}-${pad(time.month)}-${pad(time.day)}T${pad(time.hour)}:${pad(time.minute)}`;
}

/** For people: `2026-12-07 09:00 Europe/Berlin`. */
export function displayLocal(time: Temporal.ZonedDateTime): string {
  return `${localMinute(time).replace('T', ' ')} ${time.timeZoneId}`;
}
