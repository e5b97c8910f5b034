import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/calendar/diff.js';
import { type ForecastAccount, forecastQuota } from '../../src/calendar/forecast.js';
import { desiredPost, postRead, state } from './plan-fixtures.js';

const TODAY = '2026-12-07';

const twitter: ForecastAccount = {
  accountId: 'acc_x',
  platform: 'twitter',
  handle: '@acme',
  limit: 3,
  unit: 'posts',
  costPerPost: 1,
  usedToday: 1,
  today: TODAY,
};

const youtube: ForecastAccount = {
  accountId: 'acc_yt',
  platform: 'youtube',
  displayName: 'Acme TV',
  limit: 10_000,
  unit: 'quota_units',
  costPerPost: 1600,
  usedToday: 500,
  today: TODAY,
};

function onX(externalId: string, scheduledAt: string) {
  return desiredPost(externalId, { platform: 'twitter', accountId: 'acc_x', scheduledAt });
}

function onYouTube(externalId: string, scheduledAt: string) {
  return desiredPost(externalId, {
    platform: 'youtube',
    accountId: 'acc_yt',
    postType: 'video',
    scheduledAt,
  });
}

describe('forecastQuota', () => {
  it('counts per account per UTC day, with what is already scheduled and used today', () => {
    // Prepare: two calendar posts today (one just before midnight UTC), one tomorrow just after.
    const desired = [
      onX('acme/a', '2026-12-07T09:00:00Z'),
      onX('acme/b', '2026-12-07T23:30:00Z'),
      onX('acme/c', '2026-12-08T00:30:00Z'),
    ];
    const others = [
      postRead({
        id: 'pst_o1',
        accountId: 'acc_x',
        platform: 'twitter',
        scheduledAt: '2026-12-07T12:00:00.000Z',
      }),
      // A day the calendar does not touch gets no row.
      postRead({
        id: 'pst_o2',
        accountId: 'acc_x',
        platform: 'twitter',
        scheduledAt: '2026-12-10T12:00:00.000Z',
      }),
    ];
    const items = planChanges(desired, state({ others }));

    // Act
    const rows = forecastQuota({ desired, items, others, accounts: [twitter] });

    // Assess: today 2 + 1 + 1 used > 3; tomorrow 1.
    expect(rows).toEqual([
      {
        accountId: 'acc_x',
        platform: 'twitter',
        account: '@acme',
        day: '2026-12-07',
        calendar: 2,
        alreadyScheduled: 1,
        usedToday: 1,
        limit: 3,
        over: true,
      },
      {
        accountId: 'acc_x',
        platform: 'twitter',
        account: '@acme',
        day: '2026-12-08',
        calendar: 1,
        alreadyScheduled: 0,
        limit: 3,
        over: false,
      },
    ]);
  });

  it('reckons a YouTube day in quota units: 1600 a post against 10,000', () => {
    // Prepare: six uploads fit an empty day (9,600), not a day with 500 units used; seven never do.
    const today = Array.from({ length: 6 }, (_, index) =>
      onYouTube(`acme/t${index}`, `2026-12-07T1${index}:00:00Z`),
    );
    const tomorrow = Array.from({ length: 6 }, (_, index) =>
      onYouTube(`acme/m${index}`, `2026-12-08T1${index}:00:00Z`),
    );
    const later = Array.from({ length: 7 }, (_, index) =>
      onYouTube(`acme/l${index}`, `2026-12-09T1${index}:00:00Z`),
    );
    const desired = [...today, ...tomorrow, ...later];

    // Act
    const rows = forecastQuota({
      desired,
      items: planChanges(desired, state()),
      others: [],
      accounts: [youtube],
    });

    // Assess
    expect(rows.map((row) => [row.day, row.calendar, row.limit, row.usedToday, row.over])).toEqual([
      ['2026-12-07', 6, 6, 1, true],
      ['2026-12-08', 6, 6, undefined, false],
      ['2026-12-09', 7, 6, undefined, true],
    ]);
  });

  it('does not count posts the plan cancels, drafts, sent posts or past days; counts unchanged ones', () => {
    // Prepare
    const unchanged = postRead({
      id: 'pst_1',
      externalId: 'acme/kept',
      accountId: 'acc_x',
      platform: 'twitter',
      scheduledAt: '2026-12-08T09:00:00.000Z',
    });
    const dropped = postRead({
      id: 'pst_2',
      externalId: 'acme/dropped',
      accountId: 'acc_x',
      platform: 'twitter',
      scheduledAt: '2026-12-08T10:00:00.000Z',
    });
    const published = postRead({
      id: 'pst_3',
      externalId: 'acme/sent',
      accountId: 'acc_x',
      platform: 'twitter',
      status: 'published',
      scheduledAt: '2026-12-08T06:00:00.000Z',
    });
    const desired = [
      onX('acme/kept', '2026-12-08T09:00:00Z'),
      onX('acme/sent', '2026-12-08T06:00:00Z'),
      desiredPost('acme/idea', {
        platform: 'twitter',
        accountId: 'acc_x',
        status: 'draft',
        scheduledAt: '2026-12-08T11:00:00Z',
      }),
      onX('acme/yesterday', '2026-12-06T09:00:00Z'),
    ];
    const items = planChanges(desired, state({ managed: [unchanged, dropped, published] }));

    // Act
    const rows = forecastQuota({ desired, items, others: [], accounts: [twitter] });

    // Assess
    expect(items.find((item) => item.externalId === 'acme/dropped')?.kind).toBe('cancel');
    expect(rows).toEqual([expect.objectContaining({ day: '2026-12-08', calendar: 1, alreadyScheduled: 0 })]);
  });

  it('counts a bound post once though it is also among the others', () => {
    const bound = postRead({
      id: 'pst_9',
      accountId: 'acc_x',
      platform: 'twitter',
      scheduledAt: '2026-12-08T09:00:00.000Z',
    });
    const desired = [{ ...onX('acme/pst_9', '2026-12-08T09:00:00Z'), postId: 'pst_9' }];
    const items = planChanges(desired, state({ bound: [bound], others: [bound] }));
    const rows = forecastQuota({ desired, items, others: [bound], accounts: [twitter] });
    expect(rows).toEqual([expect.objectContaining({ calendar: 1, alreadyScheduled: 0 })]);
  });
});
