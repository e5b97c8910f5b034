import { ENTRY_FIELDS, readEntry } from './calendar-entry.js';
import { CalendarFileError, Problems } from './calendar-error.js';
import { childPath, describeType, isRecord, readString, refuseUnknownFields } from './document-fields.js';
import { isTimeZone, parseClock } from './local-time.js';
import type { CalendarEntry, CalendarFile, SlotRule, Weekday } from './model.js';
import { isWeekday } from './slots.js';

export const DEFAULT_TIMEZONE = 'UTC';
export const DEFAULT_HORIZON_DAYS = 30;
export const CALENDAR_NAME_PATTERN = /^[A-Za-z0-9._-]{1,60}$/;

/** Settings a caller supplies where the document has none (CSV has no header fields at all). */
export interface CalendarDefaults {
  /** Used when the document names no calendar (the CLI passes --calendar or the file's base name). */
  calendar?: string;
  timezone?: string;
  horizonDays?: number;
}

const TOP_FIELDS = ['calendar', 'timezone', 'horizonDays', 'slots', 'posts'] as const;
const SLOT_FIELDS = ['accountId', 'timezone', 'days', 'times'] as const;

/**
 * The calendar a parsed YAML/JSON document (or CSV rows put in that shape) declares.
 * @throws CalendarFileError listing every problem.
 */
export function readCalendarDocument(doc: unknown, defaults: CalendarDefaults = {}): CalendarFile {
  if (!isRecord(doc)) {
    throw new CalendarFileError([
      {
        path: '',
        message: `the file must hold a mapping with calendar and posts (got ${describeType(doc)})`,
      },
    ]);
  }
  const problems = new Problems();
  refuseUnknownFields(doc, TOP_FIELDS, '', problems);
  const calendar =
    doc.calendar === undefined && defaults.calendar !== undefined
      ? checkCalendarName(defaults.calendar, problems)
      : readString(doc, 'calendar', '', problems, {
          required: true,
          pattern: CALENDAR_NAME_PATTERN,
          expected: 'a name of 1 to 60 letters, digits, dots, underscores and hyphens',
        });
  const timezone = readTimeZone(doc, defaults.timezone ?? DEFAULT_TIMEZONE, problems);
  const horizonDays = readHorizon(doc.horizonDays ?? defaults.horizonDays ?? DEFAULT_HORIZON_DAYS, problems);
  const slots = readList(doc.slots, 'slots', problems).flatMap((raw, index) => {
    const slot = readSlot(raw, childPath('slots', index), timezone, problems);
    return slot === undefined ? [] : [slot];
  });
  const entries = readList(doc.posts, 'posts', problems).flatMap((raw, index) => {
    const entry = readEntry(raw, childPath('posts', index), timezone, problems);
    return entry === undefined ? [] : [entry];
  });
  refuseRepeats(doc.posts, problems);
  problems.throwIfAny();
  return { calendar: calendar ?? '', timezone, horizonDays, slots, entries };
}

function checkCalendarName(name: string, problems: Problems): string | undefined {
  if (CALENDAR_NAME_PATTERN.test(name)) return name;
  problems.add(
    'calendar',
    `"${name}" is not a name of 1 to 60 letters, digits, dots, underscores and hyphens`,
  );
  return undefined;
}

function readTimeZone(doc: Record<string, unknown>, fallback: string, problems: Problems): string {
  const zone = doc.timezone === undefined ? fallback : readString(doc, 'timezone', '', problems);
  if (zone === undefined) return DEFAULT_TIMEZONE;
  if (!isTimeZone(zone)) {
    problems.add('timezone', `unknown time zone "${zone}"`);
    return DEFAULT_TIMEZONE;
  }
  return zone;
}

function readHorizon(raw: unknown, problems: Problems): number {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= 366) return raw;
  problems.add('horizonDays', `must be a whole number of days from 1 to 366 (got ${describeType(raw)})`);
  return DEFAULT_HORIZON_DAYS;
}

function readList(raw: unknown, path: string, problems: Problems): unknown[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return raw;
  problems.add(path, `must be a list (got ${describeType(raw)})`);
  return [];
}

function readSlot(raw: unknown, path: string, fileZone: string, problems: Problems): SlotRule | undefined {
  if (!isRecord(raw)) {
    problems.add(path, `must be a mapping {accountId, days, times} (got ${describeType(raw)})`);
    return undefined;
  }
  const before = problems.list.length;
  refuseUnknownFields(raw, SLOT_FIELDS, path, problems);
  const accountId = readString(raw, 'accountId', path, problems, {
    required: true,
    pattern: /\S/,
    expected: 'an account id',
  });
  const zone = readString(raw, 'timezone', path, problems);
  if (zone !== undefined && !isTimeZone(zone))
    problems.add(childPath(path, 'timezone'), `unknown time zone "${zone}"`);
  const days = readStrings(raw.days, childPath(path, 'days'), problems, (day) =>
    isWeekday(day) ? undefined : `"${day}" is not a weekday (MO, TU, WE, TH, FR, SA, SU)`,
  ).filter((day): day is Weekday => isWeekday(day));
  const times = readStrings(raw.times, childPath(path, 'times'), problems, (time) =>
    parseClock(time) === undefined ? `"${time}" is not a time HH:MM (24-hour)` : undefined,
  );
  if (problems.list.length > before || accountId === undefined) return undefined;
  return { accountId, timezone: zone ?? fileZone, days, times };
}

/** A non-empty list of strings, each checked by `problem` (which answers a message or undefined). */
function readStrings(
  raw: unknown,
  path: string,
  problems: Problems,
  problem: (value: string) => string | undefined,
): string[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add(path, 'required: a non-empty list');
    return [];
  }
  const values: string[] = [];
  raw.forEach((value: unknown, index) => {
    const message =
      typeof value === 'string' ? problem(value) : `must be a string (got ${describeType(value)})`;
    if (message !== undefined) problems.add(childPath(path, index), message);
    else if (typeof value === 'string') values.push(value);
  });
  return values;
}

/** Two entries with one key would be one externalId; two bound to one post would fight over it. */
function refuseRepeats(posts: unknown, problems: Problems): void {
  if (!Array.isArray(posts)) return;
  for (const field of ['key', 'postId'] as const) {
    const first = new Map<string, number>();
    posts.forEach((raw: unknown, index) => {
      if (!isRecord(raw)) return;
      const value = raw[field];
      if (typeof value !== 'string') return;
      const earlier = first.get(value);
      if (earlier === undefined) first.set(value, index);
      else
        problems.add(
          childPath(childPath('posts', index), field),
          `"${value}" is already used by posts[${earlier}]`,
        );
    });
  }
}

/**
 * The file's document, fields in the documented order and defaults left out where leaving them
 * out reads better (a slot in the file's zone, status scheduled); readCalendarDocument gives the
 * same CalendarFile back.
 */
export function toCalendarDocument(file: CalendarFile): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    calendar: file.calendar,
    timezone: file.timezone,
    horizonDays: file.horizonDays,
  };
  if (file.slots.length > 0) {
    doc.slots = file.slots.map((slot) => ({
      accountId: slot.accountId,
      ...(slot.timezone === file.timezone ? {} : { timezone: slot.timezone }),
      days: [...slot.days],
      times: [...slot.times],
    }));
  }
  doc.posts = file.entries.map(toEntryDocument);
  return doc;
}

export function toEntryDocument(entry: CalendarEntry): Record<string, unknown> {
  const values: Record<(typeof ENTRY_FIELDS)[number], unknown> = {
    key: entry.key,
    platform: entry.post.platform,
    accountId: entry.post.accountId,
    postType: entry.post.postType,
    content: entry.post.content,
    at: entry.at,
    timezone: entry.timezone,
    status: entry.status === 'draft' ? 'draft' : undefined,
    media: entry.post.media,
    platformOptions: entry.post.platformOptions,
    firstComment: entry.post.firstComment,
    link: entry.post.link,
    repeat: entry.repeat === undefined ? undefined : { rule: entry.repeat.rule, start: entry.repeat.start },
    postId: entry.postId,
  };
  const doc: Record<string, unknown> = {};
  for (const field of ENTRY_FIELDS) {
    if (values[field] !== undefined) doc[field] = values[field];
  }
  return doc;
}
