import type { Context } from 'hono';
import { POST_STATUSES } from '../../domain/posts.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { postForm, selectField, submitButton, textField } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { inputFromUtc } from './posts-actions.js';
import { excerptOf, NETWORK_NAMES } from './posts-format.js';
import type { PostResource } from './posts-list.js';

/** Posts of one account closer than this are marked: networks and audiences punish bursts. */
export const COLLISION_WINDOW_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

export type CalendarView = 'week' | 'month';

export interface CalendarQuery {
  view: CalendarView;
  /** The first day shown (a Monday for a week, the 1st for a month), UTC midnight. */
  start: Date;
  /** The day after the last one shown. */
  end: Date;
  accountId: string;
  status: string;
}

const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/** The range a view shows around `date` (YYYY-MM-DD, UTC; today when absent or malformed). */
export function calendarRange(
  view: CalendarView,
  date: string | undefined,
  now: number,
): { start: Date; end: Date } {
  const parsed = date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
  const day = new Date(Number.isNaN(parsed) ? Math.floor(now / DAY_MS) * DAY_MS : parsed);
  if (view === 'month') {
    const start = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
    return { start, end: new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1)) };
  }
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  const start = new Date(day.getTime() - sinceMonday * DAY_MS);
  return { start, end: new Date(start.getTime() + 7 * DAY_MS) };
}

/** When a post stands on the calendar: its scheduled time, else when it was published. */
export function calendarTime(post: PostResource): string | null {
  return post.scheduledAt ?? post.publishedAt ?? null;
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

interface Account {
  id: string;
  handle: string;
  platform: keyof typeof NETWORK_NAMES;
}

function entry(
  c: Context<DashboardEnv>,
  workspaceId: string,
  post: PostResource,
  options: { colliding: boolean; account: Account | undefined; back: string; canChange: boolean },
): Html {
  const time = calendarTime(post) ?? '';
  const movable = options.canChange && (post.status === 'scheduled' || post.status === 'pending_approval');
  const who = options.account
    ? `${options.account.handle} (${NETWORK_NAMES[options.account.platform]})`
    : post.accountId;
  const reschedule = movable
    ? html`<details><summary>Reschedule<span class="visually-hidden"> ${excerptOf(post.content, 30)}</span></summary>${postForm(
        c,
        `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/${post.id}/reschedule`,
        html`<input type="hidden" name="back" value="${options.back}">${textField({
          name: `scheduledAt-${post.id}`,
          label: 'New time (UTC)',
          type: 'datetime-local',
          value: inputFromUtc(post.scheduledAt),
          required: true,
        })}${submitButton('Move')}`,
        { label: `Reschedule post ${post.id}` },
      )}</details>`
    : empty;
  return html`<li class="calendar-post${options.colliding ? ' collision' : ''}" data-post-id="${post.id}"><time datetime="${time}">${time.slice(11, 16)}</time> <a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/${post.id}">${excerptOf(post.content, 50) || post.id}</a><br><span class="badge">${post.status.replace('_', ' ')}</span> ${who}${
    options.colliding
      ? html` <span class="badge bad">Collision: another post on this account within 15 minutes</span>`
      : empty
  }${reschedule}</li>`;
}

export interface CalendarBodyView {
  workspaceId: string;
  query: CalendarQuery;
  posts: readonly PostResource[];
  accounts: readonly Account[];
  canChange: boolean;
}

/** The calendar: navigation, filters, then one list per day (a grid on wide screens). */
export function calendarBody(c: Context<DashboardEnv>, view: CalendarBodyView): Html {
  const { query, workspaceId } = view;
  const date = dayKey(query.start);
  const here = { view: query.view, date, accountId: query.accountId, status: query.status };
  const back = calendarUrl(workspaceId, here);
  const shift = (days: number, months: number) => {
    const moved =
      query.view === 'month'
        ? new Date(Date.UTC(query.start.getUTCFullYear(), query.start.getUTCMonth() + months, 1))
        : new Date(query.start.getTime() + days * DAY_MS);
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
  const days: Date[] = [];
  for (let at = query.start.getTime(); at < query.end.getTime(); at += DAY_MS) days.push(new Date(at));
  const title =
    query.view === 'month'
      ? query.start.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' })
      : `Week of ${query.start.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}`;
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
  const grid = html`<ol class="calendar ${query.view}">${join(
    days.map((day) => {
      const posts = byDay.get(dayKey(day)) ?? [];
      const label = day.toLocaleDateString('en-GB', {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        timeZone: 'UTC',
      });
      return html`<li class="calendar-day${posts.length === 0 ? ' empty' : ''}"><h3 id="day-${dayKey(day)}">${label}</h3>${
        posts.length > 0
          ? html`<ul aria-labelledby="day-${dayKey(day)}">${join(
              posts.map((post) =>
                entry(c, workspaceId, post, {
                  colliding: colliding.has(post.id),
                  account: accountOf(post.accountId),
                  back,
                  canChange: view.canChange,
                }),
              ),
            )}</ul>`
          : html`<p class="hint">Nothing.</p>`
      }</li>`;
    }),
  )}</ol>`;
  const summary =
    view.posts.length === 0
      ? html`<p>No post in this ${query.view}${query.accountId || query.status ? ' with these filters' : ''}. <a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/new">Write one</a>.</p>`
      : colliding.size > 0
        ? html`<p class="alert-inline">${colliding.size} posts are within 15 minutes of another post on the same account (marked Collision).</p>`
        : empty;
  return html`<section aria-labelledby="calendar-heading"><h2 id="calendar-heading">${title}</h2>${nav}${filters}${summary}${grid}</section>`;
}
