import { describe, expect, it } from 'vitest';
import type { CalendarFile, ServiceState } from '../../src/calendar/model.js';
import type { CalendarService } from '../../src/cli/calendar-service.js';
import { makePlan } from '../../src/cli/make-plan.js';
import { postRead, state } from '../calendar/plan-fixtures.js';

const NOW = new Date('2026-12-01T12:00:00Z');

/** The service as makePlan reads it: a fixed state, every change valid, one roomy account. */
function serviceHolding(held: ServiceState): CalendarService {
  const refused = () => Promise.reject(new Error('plan must not write'));
  return {
    listPosts: () => Promise.resolve([]),
    readState: () => Promise.resolve(held),
    readAccounts: () =>
      Promise.resolve([
        {
          accountId: 'acc_li',
          platform: 'linkedin',
          limit: 100,
          unit: 'posts',
          costPerPost: 1,
          usedToday: 0,
          today: '2026-12-01',
        },
      ]),
    validate: () => Promise.resolve({ valid: true, postStatus: 'scheduled', errors: [] }),
    create: refused,
    update: refused,
    cancel: refused,
  };
}

const calendar = (entries: CalendarFile['entries']): CalendarFile => ({
  calendar: 'cal',
  timezone: 'UTC',
  horizonDays: 30,
  slots: [],
  entries,
});

describe('makePlan', () => {
  it('never cancels a post of the calendar whose time has come; one still ahead is cancelled', async () => {
    const due = postRead({
      id: 'pst_due',
      externalId: 'cal/weekly@2026-12-01T11:59',
      scheduledAt: '2026-12-01T11:59:00.000Z',
    });
    const ahead = postRead({
      id: 'pst_ahead',
      externalId: 'cal/old',
      scheduledAt: '2026-12-03T09:00:00.000Z',
    });
    const plan = await makePlan(serviceHolding(state({ managed: [due, ahead] })), calendar([]), NOW);
    expect(plan.items.map((item) => [item.kind, item.post?.id])).toEqual([['cancel', 'pst_ahead']]);
  });

  it("leaves a bound post's time alone when its entry names none", async () => {
    const bound = postRead({ id: 'pst_bound', scheduledAt: '2026-12-05T09:00:00.000Z' });
    const entry = {
      key: 'pst_bound',
      postId: 'pst_bound',
      status: 'scheduled' as const,
      post: {
        platform: 'linkedin' as const,
        accountId: 'acc_li',
        postType: 'text' as const,
        content: bound.content as string,
      },
    };
    const plan = await makePlan(serviceHolding(state({ bound: [bound] })), calendar([entry]), NOW);
    expect(plan.items.map((item) => item.kind)).toEqual(['unchanged']);
  });
});
