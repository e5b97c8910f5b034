import type { Context } from 'hono';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { postForm, submitButton, textField } from '../forms.js';
import { empty, type Html, html } from '../html.js';
import { inputFromUtc } from './posts-actions.js';
import { excerptOf, NETWORK_NAMES } from './posts-format.js';
import type { PostResource } from './posts-list.js';

export interface CalendarAccount {
  id: string;
  handle: string;
  platform: keyof typeof NETWORK_NAMES;
}

/** When a post stands on the calendar: its scheduled time, else when it was published. */
export function calendarTime(post: PostResource): string | null {
  return post.scheduledAt ?? post.publishedAt ?? null;
}

export interface CalendarEntryOptions {
  colliding: boolean;
  account: CalendarAccount | undefined;
  /** The calendar page a reschedule returns to. */
  back: string;
  canChange: boolean;
}

/** One post on a day: its time, text, status and account; a Reschedule disclosure when it can move. */
export function calendarEntry(
  c: Context<DashboardEnv>,
  workspaceId: string,
  post: PostResource,
  options: CalendarEntryOptions,
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
