import type { ForecastRow } from '../../src/calendar/forecast.js';
import type { PlanItem } from '../../src/calendar/model.js';
import type { PlanReport, Validation } from '../../src/calendar/plan-report.js';
import { desiredPost, postRead } from './plan-fixtures.js';

export const VALID: Validation = { valid: true, postStatus: 'scheduled', errors: [] };

/** A plan of each kind of change, as planChanges makes them. */
export function sampleItems(): PlanItem[] {
  const old = postRead({ id: 'pst_2', externalId: 'acme/moved', scheduledAt: '2026-12-07T08:00:00.000Z' });
  const edited = postRead({
    id: 'pst_3',
    externalId: 'acme/edited',
    scheduledAt: '2026-12-08T08:00:00.000Z',
  });
  const dropped = postRead({
    id: 'pst_4',
    externalId: 'acme/dropped',
    scheduledAt: '2026-12-09T08:00:00.000Z',
  });
  const kept = postRead({ id: 'pst_5', externalId: 'acme/kept', scheduledAt: '2026-12-10T08:00:00.000Z' });
  return [
    {
      kind: 'create',
      externalId: 'acme/launch',
      desired: desiredPost(
        'acme/launch',
        { scheduledAt: '2026-12-07T08:00:00Z' },
        { timeSource: 'slot', localTime: '2026-12-07 09:00 Europe/Berlin' },
      ),
      changedFields: [],
    },
    {
      kind: 'reschedule',
      externalId: 'acme/moved',
      desired: desiredPost(
        'acme/moved',
        { scheduledAt: '2026-12-07T13:00:00Z' },
        { timeSource: 'recurrence', localTime: '2026-12-07 14:00 Europe/Berlin' },
      ),
      post: old,
      patch: { scheduledAt: '2026-12-07T13:00:00Z' },
      changedFields: ['scheduledAt'],
    },
    {
      kind: 'edit',
      externalId: 'acme/edited',
      desired: desiredPost('acme/edited', { scheduledAt: '2026-12-08T08:00:00Z', content: 'New | text' }),
      post: edited,
      patch: { content: 'New | text' },
      changedFields: ['content'],
    },
    { kind: 'cancel', externalId: 'acme/dropped', post: dropped, changedFields: [] },
    {
      kind: 'unchanged',
      externalId: 'acme/kept',
      desired: desiredPost('acme/kept', { scheduledAt: '2026-12-10T08:00:00Z' }),
      post: kept,
      changedFields: [],
    },
  ];
}

export function sampleForecast(over: boolean): ForecastRow[] {
  return [
    {
      accountId: 'acc_li',
      platform: 'linkedin',
      account: 'Acme GmbH',
      day: '2026-12-07',
      calendar: over ? 160 : 2,
      alreadyScheduled: 1,
      usedToday: 0,
      limit: 150,
      over,
    },
  ];
}

export function sampleReport(validations: Record<string, Validation> = {}, over = false): PlanReport {
  return {
    items: sampleItems(),
    validations: new Map(Object.entries(validations)),
    forecast: sampleForecast(over),
    calendar: 'acme',
  };
}
