import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCalendar, writeCalendar } from '../../src/calendar/calendar-file.js';
import type { CalendarEntry, CalendarFile, PostFields, SlotRule, Weekday } from '../../src/calendar/model.js';

const zone = fc.constantFrom(
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
);
const name = (max: number): fc.Arbitrary<string> =>
  fc.stringMatching(new RegExp(`^[A-Za-z0-9._-]{1,${max}}$`));
/** Texts YAML and CSV must carry as they are: quotes, commas, colons, leading spaces, new lines, emoji. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' lead',
    'trail ',
    'a: b',
    '- dash',
    '"quoted"',
    'x,y',
    'line\nline\n',
    'null',
    '123',
    'yes',
    '#tag',
    '2026-12-01',
  ),
);
const two = (n: number): string => String(n).padStart(2, '0');
const localTime = fc
  .record(
    {
      day: fc.integer({ min: 1, max: 28 }),
      month: fc.integer({ min: 1, max: 12 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
    },
    { noNullPrototype: true },
  )
  .map(({ day, month, hour, minute }) => `2026-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}`);
const at = fc.oneof(
  localTime,
  localTime.map((time) => `${time}:00Z`),
  localTime.map((time) => `${time}:00+05:30`),
);
const media = fc.array(
  fc.stringMatching(/^med_[a-z0-9]{1,8}$/).map((id) => ({ id })),
  { minLength: 1, maxLength: 2 },
);
type ContentItem = Exclude<PostFields['content'], string>[number];
const contentItem: fc.Arbitrary<ContentItem> = fc
  .tuple(fc.option(text, { nil: undefined }), fc.option(media, { nil: undefined }))
  .map(([itemText, itemMedia]) => {
    const item: ContentItem = {};
    if (itemText !== undefined) item.text = itemText;
    if (itemMedia !== undefined) item.media = itemMedia;
    return item;
  });
const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(arbitrary, { nil: undefined });
const post: fc.Arbitrary<PostFields> = fc
  .tuple(
    fc.constantFrom('twitter', 'linkedin', 'bluesky', 'threads'),
    fc.stringMatching(/^acc_[A-Z0-9]{1,6}$/),
    fc.constantFrom('text', 'image', 'thread', 'carousel'),
    fc.oneof(text, fc.array(contentItem, { minLength: 1, maxLength: 3 })),
    optional(media),
    optional(
      fc.oneof(
        fc.constant(null),
        fc
          .array(fc.constantFrom('en', 'de'), { maxLength: 2 })
          .map((languages) => ({ bluesky: { langs: languages } })),
      ),
    ),
    optional(
      fc.oneof(
        fc.constant(null),
        text.map((commentText) => ({ text: commentText })),
      ),
    ),
    optional(text.map((title) => ({ url: 'https://example.com/a?b=c', title }))),
  )
  .map(([platform, accountId, postType, content, postMedia, platformOptions, firstComment, link]) => {
    const fields: PostFields = { platform, accountId, postType, content };
    if (postMedia !== undefined) fields.media = postMedia;
    if (platformOptions !== undefined) fields.platformOptions = platformOptions;
    if (firstComment !== undefined) fields.firstComment = firstComment;
    if (link !== undefined) fields.link = link;
    return fields;
  });

const entryTiming = fc.oneof(
  fc.record(
    {
      at,
      status: fc.constantFrom<'scheduled' | 'draft'>('scheduled', 'draft'),
      postId: fc.option(fc.stringMatching(/^pst_[a-z0-9]{1,6}$/), { nil: undefined }),
    },
    { noNullPrototype: true },
  ),
  fc.record(
    {
      repeat: fc.record(
        {
          rule: fc.constantFrom('FREQ=WEEKLY;BYDAY=MO', 'FREQ=DAILY;COUNT=3', 'FREQ=MONTHLY;BYMONTHDAY=1'),
          start: localTime,
        },
        { noNullPrototype: true },
      ),
      status: fc.constant<'scheduled'>('scheduled'),
    },
    { noNullPrototype: true },
  ),
  fc.record(
    { status: fc.constantFrom<'scheduled' | 'draft'>('scheduled', 'draft') },
    { noNullPrototype: true },
  ),
);

function entries(): fc.Arbitrary<CalendarEntry[]> {
  return fc
    .uniqueArray(fc.tuple(name(100), post, entryTiming, fc.option(zone, { nil: undefined })), {
      selector: ([key]) => key,
      maxLength: 6,
    })
    .map((rows) => {
      const usedPostIds = new Set<string>();
      return rows.map(([key, fields, timing, timezone]) => {
        const entry: CalendarEntry = { key, post: fields, status: timing.status };
        if ('at' in timing) entry.at = timing.at;
        if ('repeat' in timing) entry.repeat = timing.repeat;
        if ('postId' in timing && timing.postId !== undefined && !usedPostIds.has(timing.postId)) {
          usedPostIds.add(timing.postId);
          entry.postId = timing.postId;
        }
        if (timezone !== undefined) entry.timezone = timezone;
        return entry;
      });
    });
}

const weekdays: Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const slot: fc.Arbitrary<SlotRule> = fc.record(
  {
    accountId: fc.stringMatching(/^acc_[A-Z0-9]{1,6}$/),
    timezone: zone,
    days: fc.subarray(weekdays, { minLength: 1 }),
    times: fc.array(
      fc
        .record(
          { h: fc.integer({ min: 0, max: 23 }), m: fc.integer({ min: 0, max: 59 }) },
          { noNullPrototype: true },
        )
        .map(({ h, m }) => `${two(h)}:${two(m)}`),
      { minLength: 1, maxLength: 3 },
    ),
  },
  { noNullPrototype: true },
);

const calendarFile: fc.Arbitrary<CalendarFile> = fc.record(
  {
    calendar: name(60),
    timezone: zone,
    horizonDays: fc.integer({ min: 1, max: 366 }),
    slots: fc.array(slot, { maxLength: 3 }),
    entries: entries(),
  },
  { noNullPrototype: true },
);

describe('writeCalendar then parseCalendar', () => {
  it.each(['yaml', 'json'] as const)('gives back any calendar from %s', (format) => {
    fc.assert(
      fc.property(calendarFile, (file) => {
        expect(parseCalendar(writeCalendar(file, format), format)).toStrictEqual(file);
      }),
      { numRuns: 150 },
    );
  });

  it('gives back any calendar without slots from CSV, given its name and zone', () => {
    fc.assert(
      fc.property(calendarFile, (generated) => {
        const file: CalendarFile = { ...generated, slots: [], horizonDays: 30 };
        const text = writeCalendar(file, 'csv');
        expect(
          parseCalendar(text, 'csv', { calendar: file.calendar, timezone: file.timezone }),
        ).toStrictEqual(file);
      }),
      { numRuns: 150 },
    );
  });
});
