import { groupLiveByExternalId, planChanges } from '../calendar/diff.js';
import { expandCalendar } from '../calendar/expand.js';
import { forecastQuota } from '../calendar/forecast.js';
import type { CalendarFile, DesiredPost, PlanItem, ServiceState } from '../calendar/model.js';
import type { PlanReport, Validation } from '../calendar/plan-report.js';
import type { Post } from '../types.js';
import type { CalendarService } from './calendar-service.js';

/** A plan and everything it was made from. */
export interface CalendarPlan {
  /** The calendar's name (the file's). */
  calendar: string;
  file: CalendarFile;
  state: ServiceState;
  desired: DesiredPost[];
  items: PlanItem[];
  report: PlanReport;
}

/** validatePost is asked about each change in a few requests at a time, not thousands at once. */
const VALIDATE_AT_ONCE = 4;

/**
 * The plan of a calendar file against the service:
 * 1. read what the service holds (the calendar's posts, the posts it names, its accounts' others);
 * 2. expand the file (recurrences, slots; a placed post keeps its time) into the posts it wants;
 * 3. compare: create, reschedule, edit, cancel, unchanged;
 * 4. ask validatePost about every change (rules, policies, approvals), writing nothing;
 * 5. forecast each account's days against its daily ceiling.
 */
export async function makePlan(
  service: CalendarService,
  file: CalendarFile,
  now: Date,
): Promise<CalendarPlan> {
  const state = await service.readState(file, now);
  const desired = expandCalendar(file, {
    now,
    existing: matchedByExternalId(state.managed),
    busy: state.others.flatMap((post) =>
      post.scheduledAt ? [{ accountId: post.accountId, scheduledAt: post.scheduledAt }] : [],
    ),
  });
  const items = planChanges(desired.map(keepingBoundTime(state)), state).filter(notDueYet(now));
  const [validations, accounts] = await Promise.all([
    validateChanges(service, items),
    service.readAccounts(file),
  ]);
  const forecast = forecastQuota({ desired, items, others: state.others, accounts });
  return {
    calendar: file.calendar,
    file,
    state,
    desired,
    items,
    report: { items, validations, forecast, calendar: file.calendar },
  };
}

/** An entry bound to a post by id that names no time leaves the post's time as it is. */
function keepingBoundTime(state: ServiceState) {
  const bound = new Map(state.bound.map((post) => [post.id, post]));
  return (want: DesiredPost): DesiredPost => {
    const scheduledAt = want.postId ? bound.get(want.postId)?.scheduledAt : undefined;
    if (want.timeSource !== 'none' || !scheduledAt) return want;
    return { ...want, body: { ...want.body, scheduledAt } };
  };
}

/**
 * A post whose time has come belongs to the delivery, not to the calendar: an occurrence the
 * horizon has left behind (or a post a second from being sent) is never cancelled for it.
 */
function notDueYet(now: Date) {
  return (item: PlanItem): boolean =>
    item.kind !== 'cancel' || !item.post?.scheduledAt || Date.parse(item.post.scheduledAt) > now.getTime();
}

/** The post each externalId stands for: the one the plan matches (the earliest live one). */
function matchedByExternalId(managed: Post[]): Map<string, Post> {
  const matched = new Map<string, Post>();
  for (const [externalId, [first]] of groupLiveByExternalId(managed))
    if (first) matched.set(externalId, first);
  return matched;
}

async function validateChanges(
  service: CalendarService,
  items: PlanItem[],
): Promise<Map<string, Validation>> {
  const asked = items.filter(
    (item) =>
      item.desired !== undefined &&
      (item.kind === 'create' || item.kind === 'edit' || item.kind === 'reschedule'),
  );
  const validations = new Map<string, Validation>();
  for (let start = 0; start < asked.length; start += VALIDATE_AT_ONCE) {
    await Promise.all(
      asked.slice(start, start + VALIDATE_AT_ONCE).map(async (item) => {
        if (item.desired) validations.set(item.externalId, await service.validate(item.desired.body));
      }),
    );
  }
  return validations;
}
