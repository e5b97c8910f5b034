import type { Context } from 'hono';
import { POST_STATUSES } from '../../domain/posts.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { selectField, submitButton } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { type CalendarView, DAY_MS, dayKey, firstOfMonth } from './calendar-dates.js';
import { type CalendarAccount, calendarEntry, calendarTime } from './calendar-entry.js';
import { monthGrid } from './calendar-month.js';
import { NETWORK_NAMES } from './posts-format.js';
import type { PostResource } from './posts-list.js';

/** Posts of one account closer than this are marked: networks and audiences punish bursts. */
export const COLLISION_WINDOW_MS = 15 * 60_000;

export interface CalendarQuery {
  view: CalendarView;
  /** The first day shown (always a Monday: a month shows whole weeks), UTC midnight. */
  start: Date;
  /** The day after the last one shown. */
  end: Date;
  /** The day the address names: the week's Monday, or the 1st of the month shown. */
  anchor: Date;
  accountId: string;
  status: string;
}

/** The ids of posts within the window of another post of the same account. */
export function collisionsOf(posts: readonly PostResource[]): Set<string> {
  const colliding = new Set<string>();
  const byAccount = new Map<string, Array<{ id: string; at: number }>>();
  for (const post of posts) {
    const time = calendarTime(post);
    if (!time) continue;
    const list = byAccount.get(post.accountId) ?? [];
    list.push({ id: post.id, at: Date.parse(time) });
    byAccount.set(post.accountId, list);
  }
  for (const list of byAccount.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let index = 1; index < list.length; index += 1) {
      const previous = list[index - 1];
      const current = list[index];
      if (previous && current && current.at - previous.at < COLLISION_WINDOW_MS) {
        colliding.add(previous.id);
        colliding.add(current.id);
      }
    }
  }
  return colliding;
}

export const calendarPath = (workspaceId: string) => `${DASHBOARD_BASE}/workspaces/${workspaceId}/calendar`;

export function calendarUrl(
  workspaceId: string,
  query: { view: CalendarView; date: string; accountId: string; status: string },
): string {
  const search = new URLSearchParams({ view: query.view, date: query.date });
  if (query.accountId) search.set('accountId', query.accountId);
  if (query.status) search.set('status', query.status);
  return `${calendarPath(workspaceId)}?${search.toString()}`;
}

export interface CalendarBodyView {
  workspaceId: string;
  query: CalendarQuery;
  posts: readonly PostResource[];
  accounts: readonly CalendarAccount[];
  canChange: boolean;
  /** Today, YYYY-MM-DD (UTC): its day is marked. */
  today: string;
}

/** A week as one list per day, each headed by its day (seven columns on wide screens). */
function weekList(
  days: readonly Date[],
  today: string,
  postsOf: (day: Date, headingId: string) => Html | undefined,
): Html {
  return html`<ol class="calendar week">${join(
    days.map((day) => {
      const key = dayKey(day);
      const posts = postsOf(day, `day-${key}`);
      const label = day.toLocaleDateString('en-GB', {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        timeZone: 'UTC',
      });
      const isToday = key === today;
      return html`<li class="calendar-day${posts ? '' : ' empty'}"${isToday ? html` aria-current="date"` : empty}><h3 id="day-${key}">${label}${
        isToday ? html` <span class="badge today">Today</span>` : empty
      }</h3>${posts ?? html`<p class="hint">Nothing.</p>`}</li>`;
    }),
  )}</ol>`;
}

/** The calendar: navigation, filters, then the week's days as lists or the month as a table. */
export function calendarBody(c: Context<DashboardEnv>, view: CalendarBodyView): Html {
  const { query, workspaceId } = view;
  const date = dayKey(query.anchor);
  const here = { view: query.view, date, accountId: query.accountId, status: query.status };
  const back = calendarUrl(workspaceId, here);
  const shift = (days: number, months: number) => {
    const moved =
      query.view === 'month'
        ? firstOfMonth(query.anchor, months)
        : new Date(query.anchor.getTime() + days * DAY_MS);
    return calendarUrl(workspaceId, { ...here, date: dayKey(moved) });
  };
  const colliding = collisionsOf(view.posts);
  const byDay = new Map<string, PostResource[]>();
  for (const post of [...view.posts].sort((a, b) =>
    (calendarTime(a) ?? '').localeCompare(calendarTime(b) ?? ''),
  )) {
    const key = (calendarTime(post) ?? '').slice(0, 10);
    byDay.set(key, [...(byDay.get(key) ?? []), post]);
  }
  const title =
    query.view === 'month'
      ? query.anchor.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' })
      : `Week of ${query.anchor.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}`;
  const nav = html`<nav aria-label="Calendar" class="calendar-nav"><ul><li><a href="${shift(-7, -1)}">Previous ${query.view}</a></li><li><a href="${shift(7, 1)}">Next ${query.view}</a></li><li><a href="${calendarUrl(
    workspaceId,
    { ...here, view: 'week' },
  )}"${query.view === 'week' ? html` aria-current="page"` : empty}>Week</a></li><li><a href="${calendarUrl(
    workspaceId,
    {
      ...here,
      view: 'month',
    },
  )}"${query.view === 'month' ? html` aria-current="page"` : empty}>Month</a></li><li><a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/new">New post</a></li></ul></nav>`;
  const filters = html`<form method="get" action="${calendarPath(workspaceId)}" class="calendar-filters" aria-label="Calendar filters"><input type="hidden" name="view" value="${query.view}"><input type="hidden" name="date" value="${date}">${selectField(
    {
      name: 'accountId',
      label: 'Account',
      choices: [
        { value: '', label: 'Any' },
        ...view.accounts.map((account) => ({
          value: account.id,
          label: `${account.handle} (${NETWORK_NAMES[account.platform]})`,
        })),
      ],
      value: query.accountId,
    },
  )}${selectField({
    name: 'status',
    label: 'Status',
    choices: [
      { value: '', label: 'Any' },
      ...POST_STATUSES.map((status) => ({ value: status, label: status.replace('_', ' ') })),
    ],
    value: query.status,
  })}${submitButton('Filter')}</form>`;
  const accountOf = (id: string) => view.accounts.find((account) => account.id === id);
  const postsOf = (day: Date, headingId: string): Html | undefined => {
    const posts = byDay.get(dayKey(day)) ?? [];
    if (posts.length === 0) return undefined;
    return html`<ul aria-labelledby="${headingId}">${join(
      posts.map((post) =>
        calendarEntry(c, workspaceId, post, {
          colliding: colliding.has(post.id),
          account: accountOf(post.accountId),
          back,
          canChange: view.canChange,
        }),
      ),
    )}</ul>`;
  };
  const days: Date[] = [];
  for (let at = query.start.getTime(); at < query.end.getTime(); at += DAY_MS) days.push(new Date(at));
  const grid =
    query.view === 'month'
      ? monthGrid({
          anchor: query.anchor,
          start: query.start,
          end: query.end,
          today: view.today,
          postsOf,
          title,
        })
      : weekList(days, view.today, postsOf);
  const summary =
    view.posts.length === 0
      ? html`<p>No post in this ${query.view}${query.accountId || query.status ? ' with these filters' : ''}. <a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/new">Write one</a>.</p>`
      : colliding.size > 0
        ? html`<p class="alert-inline">${colliding.size} posts are within 15 minutes of another post on the same account (marked Collision).</p>`
        : empty;
  return html`<section aria-labelledby="calendar-heading"><h2 id="calendar-heading">${title}</h2>${nav}${filters}${summary}${grid}</section>`;
}
