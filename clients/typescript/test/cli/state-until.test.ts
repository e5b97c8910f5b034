import { describe, expect, it } from 'vitest';
import type { CalendarFile } from '../../src/calendar/model.js';
import { stateUntil } from '../../src/cli/calendar-service.js';

const NOW = new Date('2026-12-01T12:00:00Z');
const post = { platform: 'twitter' as const, accountId: 'acc_1', postType: 'text' as const, content: 'x' };
const file = (ats: (string | undefined)[]): CalendarFile => ({
  calendar: 'cal',
  timezone: 'Europe/Berlin',
  horizonDays: 10,
  slots: [],
  entries: ats.map((at, index) => ({ key: `e${index}`, status: 'scheduled', post, ...(at && { at }) })),
});

describe('stateUntil: how far ahead the accounts’ other posts are read', () => {
  it('is the horizon when every fixed time is within it', () => {
    expect(stateUntil(file(['2026-12-05T09:00', undefined]), NOW).toISOString()).toBe(
      '2026-12-11T12:00:00.000Z',
    );
  });

  it('reaches the latest fixed time beyond the horizon, read in its zone', () => {
    expect(stateUntil(file(['2027-02-01T09:00', '2026-12-30T09:00Z']), NOW).toISOString()).toBe(
      '2027-02-01T08:00:00.000Z',
    );
  });

  it('leaves a time that does not parse to the expansion to report', () => {
    expect(stateUntil(file(['tomorrow']), NOW).toISOString()).toBe('2026-12-11T12:00:00.000Z');
  });
});
