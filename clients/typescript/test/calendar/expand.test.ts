import { describe, expect, it } from 'vitest';
import { type ExpandContext, expandCalendar } from '../../src/calendar/expand.js';
import type { CalendarEntry, CalendarFile, DesiredPost, SlotRule } from '../../src/calendar/model.js';
import type { Post } from '../../src/types.js';
import { captureError } from './capture-error.js';
import { postRead } from './plan-fixtures.js';

function calendar(entries: CalendarEntry[], extra: Partial<CalendarFile> = {}): CalendarFile {
  return { calendar: 'launch', timezone: 'Europe/Berlin', horizonDays: 30, slots: [], entries, ...extra };
}

function entry(key: string, fields: Partial<CalendarEntry> = {}, accountId = 'acc_1'): CalendarEntry {
  return {
    key,
    post: { platform: 'twitter', accountId, postType: 'text', content: `post ${key}` },
    status: 'scheduled',
    ...fields,
  };
}

function context(now: string, fields: Partial<ExpandContext> = {}): ExpandContext {
  return { now: new Date(now), existing: new Map(), busy: [], ...fields };
}

function existingPost(externalId: string, scheduledAt: string | null): Post {
  return postRead({
    id: 'pst_existing',
    accountId: 'acc_1',
    platform: 'twitter',
    content: 'kept',
    externalId,
    scheduledAt,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  });
}

const times = (posts: DesiredPost[]): (string | undefined)[] => posts.map((post) => post.body.scheduledAt);

describe('expandCalendar: fixed times', () => {
  it('places a local time in the file zone and states the whole createPost body, nothing undefined', () => {
    const file = calendar([
      entry('teaser', {
        at: '2026-12-01T09:00',
        post: {
          platform: 'twitter',
          accountId: 'acc_1',
          postType: 'text',
          content: 'Hi',
          media: [{ id: 'med_1' }],
        },
      }),
    ]);

    const [post, ...rest] = expandCalendar(file, context('2026-11-27T12:00:00Z'));

    expect(rest).toEqual([]);
    expect(post).toStrictEqual({
      externalId: 'launch/teaser',
      entryKey: 'teaser',
      body: {
        platform: 'twitter',
        accountId: 'acc_1',
        postType: 'text',
        content: 'Hi',
        media: [{ id: 'med_1' }],
        status: 'scheduled',
        scheduledAt: '2026-12-01T08:00:00.000Z',
        externalId: 'launch/teaser',
      },
      timeSource: 'fixed',
      localTime: '2026-12-01 09:00 Europe/Berlin',
    });
  });

  it("uses the entry's own zone over the file's", () => {
    const file = calendar([entry('ny', { at: '2026-12-01T09:00', timezone: 'America/New_York' })]);
    const [post] = expandCalendar(file, context('2026-11-27T12:00:00Z'));
    expect(post?.body.scheduledAt).toBe('2026-12-01T14:00:00.000Z');
    expect(post?.localTime).toBe('2026-12-01 09:00 America/New_York');
  });

  it('takes a time with an offset or Z as that instant, shown in the zone', () => {
    const file = calendar([
      entry('offset', { at: '2026-12-01T09:00:00-05:00' }),
      entry('zulu', { at: '2026-12-01T09:00Z' }),
    ]);
    const posts = expandCalendar(file, context('2026-11-27T12:00:00Z'));
    expect(times(posts)).toEqual(['2026-12-01T14:00:00.000Z', '2026-12-01T09:00:00.000Z']);
    expect(posts[0]?.localTime).toBe('2026-12-01 15:00 Europe/Berlin');
  });

  it('moves a local time in the spring-forward gap forward by the gap', () => {
    const file = calendar([entry('gap', { at: '2026-03-29T02:30' })]);
    const [post] = expandCalendar(file, context('2026-03-01T00:00:00Z'));
    expect(post?.body.scheduledAt).toBe('2026-03-29T01:30:00.000Z');
    expect(post?.localTime).toBe('2026-03-29 03:30 Europe/Berlin');
  });
});

describe('expandCalendar: recurring entries', () => {
  it('keeps 09:00 in Berlin across the 2026-10-25 change: the UTC hour moves by one', () => {
    const file = calendar([
      entry('weekly', { repeat: { rule: 'FREQ=WEEKLY;BYDAY=MO', start: '2026-10-12T09:00' } }),
    ]);

    const posts = expandCalendar(file, context('2026-10-15T00:00:00Z'));

    expect(times(posts)).toEqual([
      '2026-10-19T07:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
      '2026-11-02T08:00:00.000Z',
      '2026-11-09T08:00:00.000Z',
    ]);
    expect(posts.map((post) => post.externalId)).toEqual([
      'launch/weekly@2026-10-19T09:00',
      'launch/weekly@2026-10-26T09:00',
      'launch/weekly@2026-11-02T09:00',
      'launch/weekly@2026-11-09T09:00',
    ]);
    expect(posts.every((post) => post.timeSource === 'recurrence' && post.entryKey === 'weekly')).toBe(true);
    expect(posts.map((post) => post.body.externalId)).toEqual(posts.map((post) => post.externalId));
    expect(posts[1]?.localTime).toBe('2026-10-26 09:00 Europe/Berlin');
  });

  it('keeps 09:00 in New York across the 2026-11-01 change', () => {
    const file = calendar(
      [
        entry('daily', {
          timezone: 'America/New_York',
          repeat: { rule: 'FREQ=DAILY', start: '2026-10-30T09:00' },
        }),
      ],
      {
        horizonDays: 5,
      },
    );

    const posts = expandCalendar(file, context('2026-10-29T12:00:00Z'));

    expect(times(posts)).toEqual([
      '2026-10-30T13:00:00.000Z',
      '2026-10-31T13:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
    ]);
    expect(posts.map((post) => post.localTime)).toEqual([
      '2026-10-30 09:00 America/New_York',
      '2026-10-31 09:00 America/New_York',
      '2026-11-01 09:00 America/New_York',
      '2026-11-02 09:00 America/New_York',
    ]);
  });

  it('leaves out occurrences before or at now, and ends at COUNT', () => {
    const file = calendar(
      [entry('three', { repeat: { rule: 'FREQ=DAILY;COUNT=3', start: '2026-12-01T09:00' } })],
      { timezone: 'UTC' },
    );
    expect(times(expandCalendar(file, context('2026-12-01T09:00:00Z')))).toEqual([
      '2026-12-02T09:00:00.000Z',
      '2026-12-03T09:00:00.000Z',
    ]);
  });

  it('ends at UNTIL', () => {
    const file = calendar(
      [entry('until', { repeat: { rule: 'FREQ=DAILY;UNTIL=20261203T235959Z', start: '2026-12-01T09:00' } })],
      {
        timezone: 'UTC',
      },
    );
    expect(times(expandCalendar(file, context('2026-11-20T00:00:00Z')))).toEqual([
      '2026-12-01T09:00:00.000Z',
      '2026-12-02T09:00:00.000Z',
      '2026-12-03T09:00:00.000Z',
    ]);
  });

  it('stops at the horizon, so applying again later fills the next days', () => {
    const file = calendar([entry('open', { repeat: { rule: 'FREQ=DAILY', start: '2026-12-01T09:00' } })], {
      timezone: 'UTC',
      horizonDays: 3,
    });
    expect(times(expandCalendar(file, context('2026-12-01T10:00:00Z')))).toEqual([
      '2026-12-02T09:00:00.000Z',
      '2026-12-03T09:00:00.000Z',
      '2026-12-04T09:00:00.000Z',
    ]);
    expect(times(expandCalendar(file, context('2026-12-03T10:00:00Z')))).toEqual([
      '2026-12-04T09:00:00.000Z',
      '2026-12-05T09:00:00.000Z',
      '2026-12-06T09:00:00.000Z',
    ]);
  });
});

describe('expandCalendar: slots', () => {
  const weekdays: SlotRule = {
    accountId: 'acc_1',
    timezone: 'Europe/Berlin',
    days: ['MO', 'TU', 'WE', 'TH', 'FR'],
    times: ['09:00', '13:00'],
  };

  it('fills entries in file order, after fixed and kept times, skipping busy ones', () => {
    // Sunday 2026-12-06. Monday 09:00 is a fixed post's, Monday 13:00 another tool's, Tuesday 09:00 kept.
    const file = calendar(
      [
        entry('a'),
        entry('kept'),
        entry('fixed', { at: '2026-12-07T09:00' }),
        entry('b'),
        entry('other-account', {}, 'acc_2'),
        entry('c', { status: 'draft' }),
      ],
      { slots: [weekdays, { ...weekdays, accountId: 'acc_2', days: ['MO'], times: ['09:00'] }] },
    );
    const existing = new Map([['launch/kept', existingPost('launch/kept', '2026-12-08T08:00:00.000Z')]]);
    const busy = [
      { accountId: 'acc_1', scheduledAt: '2026-12-07T12:00:00.000Z' },
      { accountId: 'acc_3', scheduledAt: '2026-12-08T12:00:00.000Z' },
    ];

    const posts = expandCalendar(file, context('2026-12-06T12:00:00Z', { existing, busy }));

    expect(posts.map((post) => [post.entryKey, post.timeSource, post.localTime])).toEqual([
      ['a', 'slot', '2026-12-08 13:00 Europe/Berlin'],
      ['kept', 'kept', '2026-12-08 09:00 Europe/Berlin'],
      ['fixed', 'fixed', '2026-12-07 09:00 Europe/Berlin'],
      ['b', 'slot', '2026-12-09 09:00 Europe/Berlin'],
      ['other-account', 'slot', '2026-12-07 09:00 Europe/Berlin'],
      ['c', 'slot', '2026-12-09 13:00 Europe/Berlin'],
    ]);
    expect(posts.find((post) => post.entryKey === 'c')?.body.status).toBe('draft');
  });

  it('counts a time to the minute: a post at 09:00:30 holds the 09:00 slot', () => {
    const file = calendar([entry('a')], { slots: [{ ...weekdays, times: ['09:00'] }] });
    const busy = [{ accountId: 'acc_1', scheduledAt: '2026-12-07T08:00:30.000Z' }];
    const [post] = expandCalendar(file, context('2026-12-06T12:00:00Z', { busy }));
    expect(post?.body.scheduledAt).toBe('2026-12-08T08:00:00.000Z');
  });

  it('places slots at their local time across the Berlin change', () => {
    const file = calendar([entry('x'), entry('y')], { slots: [{ ...weekdays, times: ['09:00'] }] });
    // Thursday 2026-10-22 after 09:00: Friday is still summer time, Monday the 26th is winter time.
    expect(times(expandCalendar(file, context('2026-10-22T12:00:00Z')))).toEqual([
      '2026-10-23T07:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
    ]);
  });

  it('places slots at their local time across the New York change', () => {
    const daily: SlotRule = {
      accountId: 'acc_1',
      timezone: 'America/New_York',
      days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'],
      times: ['09:00'],
    };
    const file = calendar([entry('x'), entry('y')], { slots: [daily] });
    const posts = expandCalendar(file, context('2026-10-30T14:00:00Z'));
    expect(times(posts)).toEqual(['2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z']);
    expect(posts.map((post) => post.localTime)).toEqual([
      '2026-10-31 09:00 America/New_York',
      '2026-11-01 09:00 America/New_York',
    ]);
  });

  it('keeps the time a slot entry was given on an earlier run, even when that is not a slot any more', () => {
    const file = calendar([entry('a')], { slots: [weekdays] });
    const existing = new Map([['launch/a', existingPost('launch/a', '2026-12-20T17:45:00.000Z')]]);
    const [post] = expandCalendar(file, context('2026-12-06T12:00:00Z', { existing }));
    expect(post).toMatchObject({
      timeSource: 'kept',
      body: { scheduledAt: '2026-12-20T17:45:00.000Z' },
      localTime: '2026-12-20 18:45 Europe/Berlin',
    });
  });

  it('refuses entries left without a free slot, naming each', () => {
    const file = calendar([entry('a'), entry('b'), entry('c')], {
      horizonDays: 1,
      slots: [{ ...weekdays, times: ['09:00'] }],
    });
    const error = captureError(() => expandCalendar(file, context('2026-12-07T00:00:00Z')));
    expect(error.errors).toEqual([
      { path: 'posts[1]', message: expect.stringContaining('"b" finds no free slot of account acc_1') },
      { path: 'posts[2]', message: expect.stringContaining('"c" finds no free slot') },
    ]);
  });
});

describe('expandCalendar: entries without a time', () => {
  it('leaves a draft timeless when its account has no slots', () => {
    const [post] = expandCalendar(
      calendar([entry('idea', { status: 'draft' })]),
      context('2026-12-01T00:00:00Z'),
    );
    expect(post).toStrictEqual({
      externalId: 'launch/idea',
      entryKey: 'idea',
      body: {
        platform: 'twitter',
        accountId: 'acc_1',
        postType: 'text',
        content: 'post idea',
        status: 'draft',
        externalId: 'launch/idea',
      },
      timeSource: 'none',
    });
  });

  it('lists every scheduled entry that has no way to a time', () => {
    const file = calendar([entry('a'), entry('ok', { at: '2026-12-02T09:00' }), entry('b', {}, 'acc_2')]);
    const error = captureError(() => expandCalendar(file, context('2026-12-01T00:00:00Z')));
    expect(error.errors.map((problem) => problem.path)).toEqual(['posts[0]', 'posts[2]']);
    expect(error.errors[1]?.message).toContain('needs at, repeat or a slot for its account acc_2');
  });

  it('binds an entry with postId to that post, timed by at or not at all', () => {
    const file = calendar(
      [entry('pulled', { postId: 'pst_1', at: '2026-12-02T09:00' }), entry('loose', { postId: 'pst_2' })],
      {
        slots: [{ accountId: 'acc_1', timezone: 'UTC', days: ['MO'], times: ['09:00'] }],
      },
    );
    const posts = expandCalendar(file, context('2026-12-01T00:00:00Z'));
    expect(
      posts.map((post) => [post.externalId, post.postId, post.timeSource, post.body.scheduledAt]),
    ).toEqual([
      ['launch/pulled', 'pst_1', 'fixed', '2026-12-02T08:00:00.000Z'],
      ['launch/loose', 'pst_2', 'none', undefined],
    ]);
  });

  it('reports a time that cannot be read in a file built by code', () => {
    const error = captureError(() =>
      expandCalendar(calendar([entry('bad', { at: 'tomorrow' })]), context('2026-12-01T00:00:00Z')),
    );
    expect(error.errors).toEqual([{ path: 'posts[0].at', message: expect.stringContaining('tomorrow') }]);
  });
});
