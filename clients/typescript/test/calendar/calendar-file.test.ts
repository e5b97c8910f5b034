import { describe, expect, it } from 'vitest';
import {
  CalendarFileError,
  formatFromPath,
  parseCalendar,
  writeCalendar,
} from '../../src/calendar/calendar-file.js';
import type { CalendarFile } from '../../src/calendar/model.js';
import { captureError } from './capture-error.js';

const launchYaml = `
calendar: launch
timezone: Europe/Berlin
horizonDays: 14
slots:
  - accountId: acc_1
    days: [MO, TU, WE, TH, FR]
    times: ["09:00", 13:00]
  - accountId: acc_2
    timezone: America/New_York
    days: [SA]
    times: ["10:30"]
posts:
  - key: launch-teaser
    platform: twitter
    accountId: acc_1
    postType: text
    content: Hello
    at: 2026-12-01T09:00
  - key: weekly
    platform: linkedin
    accountId: acc_1
    postType: text
    content: |
      Monday news
      second line
    timezone: America/New_York
    repeat: {rule: "FREQ=WEEKLY;BYDAY=MO", start: "2026-12-07T09:00"}
  - key: thread
    platform: bluesky
    accountId: acc_2
    postType: thread
    content:
      - text: one
      - text: two
        media: [{id: med_1}]
    status: draft
    firstComment: {text: more}
    link: {url: "https://example.com"}
    platformOptions: {bluesky: {langs: [en]}}
  - key: pulled
    platform: twitter
    accountId: acc_1
    postType: text
    content: old
    at: 2026-12-02T10:00:00Z
    postId: pst_1
`;

describe('parseCalendar (YAML)', () => {
  it('reads every field, with the file zone filling slots and status defaulting to scheduled', () => {
    const file = parseCalendar(launchYaml, 'yaml');

    expect(file.calendar).toBe('launch');
    expect(file.timezone).toBe('Europe/Berlin');
    expect(file.horizonDays).toBe(14);
    expect(file.slots).toEqual([
      {
        accountId: 'acc_1',
        timezone: 'Europe/Berlin',
        days: ['MO', 'TU', 'WE', 'TH', 'FR'],
        times: ['09:00', '13:00'],
      },
      { accountId: 'acc_2', timezone: 'America/New_York', days: ['SA'], times: ['10:30'] },
    ]);
    expect(file.entries[0]).toStrictEqual({
      key: 'launch-teaser',
      post: { platform: 'twitter', accountId: 'acc_1', postType: 'text', content: 'Hello' },
      status: 'scheduled',
      at: '2026-12-01T09:00',
    });
    expect(file.entries[1]?.repeat).toEqual({ rule: 'FREQ=WEEKLY;BYDAY=MO', start: '2026-12-07T09:00' });
    expect(file.entries[1]?.post.content).toBe('Monday news\nsecond line\n');
    expect(file.entries[2]).toStrictEqual({
      key: 'thread',
      post: {
        platform: 'bluesky',
        accountId: 'acc_2',
        postType: 'thread',
        content: [{ text: 'one' }, { text: 'two', media: [{ id: 'med_1' }] }],
        firstComment: { text: 'more' },
        link: { url: 'https://example.com' },
        platformOptions: { bluesky: { langs: ['en'] } },
      },
      status: 'draft',
    });
    expect(file.entries[3]?.postId).toBe('pst_1');
  });

  it('applies the defaults: UTC, 30 days, no slots', () => {
    const file = parseCalendar('calendar: c\nposts: []\n', 'yaml');
    expect(file).toEqual({ calendar: 'c', timezone: 'UTC', horizonDays: 30, slots: [], entries: [] });
  });

  it('takes the calendar name from the options only when the file has none', () => {
    expect(parseCalendar('posts: []', 'yaml', { calendar: 'from-cli' }).calendar).toBe('from-cli');
    expect(parseCalendar('calendar: own\nposts: []', 'yaml', { calendar: 'from-cli' }).calendar).toBe('own');
  });

  it('lists every problem at once, each with its path', () => {
    const text = `
calendar: "bad name!"
timezone: Mars/Olympus
horizonDays: 400
extra: 1
slots:
  - accountId: acc_1
    days: [MO, XX]
    times: ["09:00", "25:00"]
    timezon: UTC
posts:
  - key: a
    platform: myspace
    accountId: acc_1
    postType: text
    content: x
    at: 2026-13-01T09:00
    scheduledAt: 2026-12-01T09:00:00Z
  - key: a
    platform: twitter
    accountId: acc_1
    postType: text
    content: x
    at: 2026-12-01T09:00
    repeat: {rule: "FREQ=WEEKLY", start: 2026-12-01T09:00}
  - key: b
    platform: twitter
    accountId: acc_1
    postType: text
    content: x
    status: draft
    timezone: Nowhere/Land
    repeat: {rule: "FREQ=FORTNIGHTLY", start: 2026-12-01}
    postId: pst_9
`;
    const error = captureError(() => parseCalendar(text, 'yaml'));
    const paths = error.errors.map((problem) => problem.path);

    expect(paths).toEqual(
      expect.arrayContaining([
        'calendar',
        'timezone',
        'horizonDays',
        'extra',
        'slots[0].days[1]',
        'slots[0].times[1]',
        'slots[0].timezon',
        'posts[0].platform',
        'posts[0].at',
        'posts[0].scheduledAt',
        'posts[1].key',
        'posts[1].repeat',
        'posts[2].timezone',
        'posts[2].repeat.start',
        'posts[2].postId',
      ]),
    );
    expect(error.errors.find((problem) => problem.path === 'posts[1].key')?.message).toContain('posts[0]');
    expect(error.errors.some((p) => p.path === 'posts[2].repeat' && /draft/.test(p.message))).toBe(true);
    expect(error.message).toContain('problems');
  });

  it('refuses a rule the library cannot read, and one finer than hourly', () => {
    const entry = (rule: string): string =>
      `calendar: c\nposts:\n  - {key: k, platform: twitter, accountId: a, postType: text, content: x, repeat: {rule: "${rule}", start: "2026-12-01T09:00"}}\n`;
    expect(captureError(() => parseCalendar(entry('FREQ=FORTNIGHTLY'), 'yaml')).errors).toEqual([
      { path: 'posts[0].repeat.rule', message: expect.stringContaining('FORTNIGHTLY') },
    ]);
    expect(captureError(() => parseCalendar(entry('FREQ=MINUTELY'), 'yaml')).errors[0]?.path).toBe(
      'posts[0].repeat.rule',
    );
    expect(captureError(() => parseCalendar(entry('BYDAY=MO'), 'yaml')).errors[0]?.message).toContain('FREQ');
  });

  it('refuses a key written twice in one mapping and reports YAML syntax errors with a line', () => {
    const duplicate = captureError(() => parseCalendar('calendar: a\ncalendar: b\n', 'yaml'));
    expect(duplicate.errors[0]?.path).toBe('line 2, column 1');
    const broken = captureError(() => parseCalendar('calendar: [a\n', 'yaml'));
    expect(broken.errors[0]?.message).toMatch(/not valid YAML/);
  });

  it('refuses a non-string where a string belongs rather than coercing it', () => {
    const error = captureError(() =>
      parseCalendar(
        'calendar: c\nposts:\n  - {key: 2024, platform: twitter, accountId: a, postType: text, content: x}\n',
        'yaml',
      ),
    );
    expect(error.errors).toEqual([
      { path: 'posts[0].key', message: expect.stringContaining('must be a string') },
    ]);
  });

  it('needs content, and checks the parts of a thread', () => {
    const error = captureError(() =>
      parseCalendar(
        'calendar: c\nposts:\n  - {key: k, platform: twitter, accountId: a, postType: thread, content: [{text: a, txt: b}, 3]}\n  - {key: l, platform: twitter, accountId: a, postType: text}\n',
        'yaml',
      ),
    );
    expect(error.errors.map((p) => p.path)).toEqual([
      'posts[0].content[0].txt',
      'posts[0].content[1]',
      'posts[1].content',
    ]);
  });
});

describe('parseCalendar (JSON)', () => {
  it('reads the same document shape', () => {
    const file = parseCalendar(
      JSON.stringify({
        calendar: 'j',
        posts: [
          {
            key: 'k',
            platform: 'x',
            accountId: 'a',
            postType: 'text',
            content: 'hi',
            at: '2026-12-01T09:00+01:00',
          },
        ],
      }),
      'json',
    );
    expect(file.entries[0]?.at).toBe('2026-12-01T09:00+01:00');
    expect(file.entries[0]?.post.platform).toBe('x');
  });

  it('reports invalid JSON', () => {
    expect(captureError(() => parseCalendar('{', 'json')).errors[0]?.message).toMatch(/not valid JSON/);
  });
});

describe('parseCalendar (CSV)', () => {
  const header =
    'key,platform,accountId,postType,status,at,timezone,repeatRule,repeatStart,postId,content,contentItems,media,platformOptions,firstComment,link';

  it('reads one entry per row, JSON cells and a thread in contentItems', () => {
    const text = [
      header,
      'a,twitter,acc_1,text,,2026-12-01T09:00,,,,,"Hello, world",,"[{""id"":""med_1""}]",,,',
      'b,bluesky,acc_1,thread,draft,,,,,,,"[{""text"":""one""},{""text"":""two""}]",,,"{""text"":""c""}",',
      'c,twitter,acc_1,text,,,Europe/Berlin,FREQ=DAILY,2026-12-01T08:00,,"multi\nline",,,,,',
    ].join('\n');
    const file = parseCalendar(text, 'csv', { calendar: 'sheet', timezone: 'Europe/Paris' });

    expect(file.calendar).toBe('sheet');
    expect(file.timezone).toBe('Europe/Paris');
    expect(file.slots).toEqual([]);
    expect(file.entries).toStrictEqual([
      {
        key: 'a',
        post: {
          platform: 'twitter',
          accountId: 'acc_1',
          postType: 'text',
          content: 'Hello, world',
          media: [{ id: 'med_1' }],
        },
        status: 'scheduled',
        at: '2026-12-01T09:00',
      },
      {
        key: 'b',
        post: {
          platform: 'bluesky',
          accountId: 'acc_1',
          postType: 'thread',
          content: [{ text: 'one' }, { text: 'two' }],
          firstComment: { text: 'c' },
        },
        status: 'draft',
      },
      {
        key: 'c',
        post: { platform: 'twitter', accountId: 'acc_1', postType: 'text', content: 'multi\nline' },
        status: 'scheduled',
        timezone: 'Europe/Berlin',
        repeat: { rule: 'FREQ=DAILY', start: '2026-12-01T08:00' },
      },
    ]);
  });

  it('reports cells that are not JSON together with the rest of the problems', () => {
    const error = captureError(() =>
      parseCalendar(`${header}\na,twitter,acc,text,,,,FREQ=NEVER,2026-12-01T09:00,,,,{,,,\n`, 'csv'),
    );
    expect(error.errors.map((problem) => problem.path)).toEqual([
      'posts[0].media',
      'calendar',
      'posts[0].repeatRule',
    ]);
  });

  it('needs a valid calendar name from the caller', () => {
    expect(captureError(() => parseCalendar(`${header}\n`, 'csv')).errors).toEqual([
      { path: 'calendar', message: expect.stringContaining('--calendar') },
    ]);
    expect(captureError(() => parseCalendar(`${header}\n`, 'csv', { calendar: 'my sheet' })).errors).toEqual([
      { path: 'calendar', message: expect.stringContaining('"my sheet" is not a name') },
    ]);
  });

  it('refuses unknown and missing columns, bad JSON cells, and names problems by column', () => {
    const columns = captureError(() =>
      parseCalendar('key,platform,acountId,postType,content\n', 'csv', { calendar: 'c' }),
    );
    expect(columns.errors.map((p) => p.path)).toEqual(['columns[2]', 'columns']);

    const cells = captureError(() =>
      parseCalendar(`${header}\na,twitter,acc,text,,,,,,,,,[oops,,,\n`, 'csv', { calendar: 'c' }),
    );
    expect(cells.errors).toEqual([{ path: 'posts[0].media', message: 'must be JSON' }]);

    const rule = captureError(() =>
      parseCalendar(`${header}\na,twitter,acc,text,,,,FREQ=NEVER,2026-12-01T09:00,,x,,,,,\n`, 'csv', {
        calendar: 'c',
      }),
    );
    expect(rule.errors[0]?.path).toBe('posts[0].repeatRule');
  });
});

describe('formatFromPath', () => {
  it('goes by the extension', () => {
    expect(formatFromPath('cal/launch.yaml')).toBe('yaml');
    expect(formatFromPath('launch.YML')).toBe('yaml');
    expect(formatFromPath('launch.json')).toBe('json');
    expect(formatFromPath('launch.csv')).toBe('csv');
    expect(() => formatFromPath('launch.txt')).toThrow(CalendarFileError);
  });
});

describe('writeCalendar', () => {
  const file = parseCalendar(launchYaml, 'yaml');

  it.each(['yaml', 'json'] as const)('gives back the same calendar from %s', (format) => {
    expect(parseCalendar(writeCalendar(file, format), format)).toStrictEqual(file);
  });

  it('gives back the same entries from CSV', () => {
    const noSlots: CalendarFile = { ...file, slots: [], horizonDays: 30 };
    const text = writeCalendar(noSlots, 'csv');
    expect(parseCalendar(text, 'csv', { calendar: 'launch', timezone: 'Europe/Berlin' })).toStrictEqual(
      noSlots,
    );
  });

  it('writes YAML in the documented order, multi-line content as a block, defaults left out', () => {
    const yaml = writeCalendar(file, 'yaml');
    expect(yaml.startsWith('calendar: launch\ntimezone: Europe/Berlin\nhorizonDays: 14\nslots:\n')).toBe(
      true,
    );
    expect(yaml).toContain('content: |\n      Monday news\n      second line\n');
    expect(yaml).toContain(
      '  - accountId: acc_1\n    days: [MO, TU, WE, TH, FR]\n    times: [09:00, 13:00]\n',
    );
    expect(yaml).toContain('timezone: America/New_York\n    days:');
    expect(yaml.match(/status:/g)).toEqual(['status:']);
    const teaser = yaml.slice(yaml.indexOf('- key: launch-teaser'), yaml.indexOf('- key: weekly'));
    expect(teaser).toBe(
      '- key: launch-teaser\n    platform: twitter\n    accountId: acc_1\n    postType: text\n    content: Hello\n    at: 2026-12-01T09:00\n  ',
    );
  });

  it('writes JSON with two spaces', () => {
    expect(writeCalendar(file, 'json')).toMatch(/^\{\n {2}"calendar": "launch",\n/);
  });
});
