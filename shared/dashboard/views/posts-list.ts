import type { z } from 'zod';
import { PLATFORMS } from '../../domain/platforms.js';
import { POST_STATUSES } from '../../domain/posts.js';
import type { postResource } from '../../operations/posts/post-schemas.js';
import { DASHBOARD_BASE } from '../env.js';
import {
  type Choice,
  errorSummary,
  type FormProblem,
  selectField,
  submitButton,
  textField,
} from '../forms.js';
import { type Html, html, join } from '../html.js';
import { excerptOf, NETWORK_NAMES } from './posts-format.js';
import { utcTime } from './time.js';

export type PostResource = z.output<typeof postResource>;

/** The filters as the form and the address carry them (the listing's query names). */
export interface PostFilters {
  status: string;
  accountId: string;
  platform: string;
  scheduledFrom: string;
  scheduledTo: string;
}

export const FILTER_NAMES = ['status', 'accountId', 'platform', 'scheduledFrom', 'scheduledTo'] as const;

/**
 * A time as the listing takes it: a `datetime-local` value (no zone) is read as UTC, as the form
 * says; anything else goes as typed, for the operation to accept or explain.
 */
export function utcFromInput(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return `${value}:00Z`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value)) return `${value}Z`;
  return value;
}

const ANY: Choice = { value: '', label: 'Any' };

export function filterForm(
  workspaceId: string,
  filters: PostFilters,
  accounts: readonly { id: string; handle: string; platform: keyof typeof NETWORK_NAMES }[],
  problem?: FormProblem,
): Html {
  return html`<section aria-labelledby="filter-heading"><h2 id="filter-heading">Filter</h2>${errorSummary(problem)}<form method="get" action="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts">${selectField(
    {
      name: 'status',
      label: 'Status',
      choices: [ANY, ...POST_STATUSES.map((status) => ({ value: status, label: status.replace('_', ' ') }))],
      value: filters.status,
      ...(problem && { errors: problem.fields }),
    },
  )}${selectField({
    name: 'accountId',
    label: 'Account',
    choices: [
      ANY,
      ...accounts.map((account) => ({
        value: account.id,
        label: `${account.handle} (${NETWORK_NAMES[account.platform]})`,
      })),
    ],
    value: filters.accountId,
    ...(problem && { errors: problem.fields }),
  })}${selectField({
    name: 'platform',
    label: 'Platform',
    choices: [ANY, ...PLATFORMS.map((platform) => ({ value: platform, label: NETWORK_NAMES[platform] }))],
    value: filters.platform,
    ...(problem && { errors: problem.fields }),
  })}${textField({
    name: 'scheduledFrom',
    label: 'Scheduled from',
    type: 'datetime-local',
    hint: 'UTC.',
    value: filters.scheduledFrom,
    ...(problem && { errors: problem.fields }),
  })}${textField({
    name: 'scheduledTo',
    label: 'Scheduled to',
    type: 'datetime-local',
    hint: 'UTC.',
    value: filters.scheduledTo,
    ...(problem && { errors: problem.fields }),
  })}${submitButton('Filter')}</form></section>`;
}

/** An account as people know it: its handle; its id only when the workspace's list lacks it. */
export function accountLabel(accountId: string, accounts: readonly { id: string; handle: string }[]): Html {
  const account = accounts.find((candidate) => candidate.id === accountId);
  return account ? html`${account.handle}` : html`<code>${accountId}</code>`;
}

/**
 * The listing as a table that fits its page: long values wrap, and on a narrow screen each row
 * becomes a card whose cells carry their column's name (`data-label`, shown by the stylesheet).
 */
export function postsTable(
  workspaceId: string,
  posts: readonly PostResource[],
  accounts: readonly { id: string; handle: string }[] = [],
): Html {
  if (posts.length === 0) {
    return html`<p>No posts match. An agent makes posts through the API with a key from <a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/agents">Agents and keys</a>; change the filters to see others.</p>`;
  }
  const base = `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts`;
  return html`<table class="responsive"><caption>Posts</caption><thead><tr><th scope="col">Post</th><th scope="col">Status</th><th scope="col">Platform</th><th scope="col">Account</th><th scope="col">Scheduled</th><th scope="col">Created</th><th scope="col">Text</th></tr></thead><tbody>${join(
    posts.map(
      (post) =>
        html`<tr><th scope="row" data-label="Post"><a href="${base}/${post.id}">${post.id}</a></th><td data-label="Status">${post.status}</td><td data-label="Platform">${NETWORK_NAMES[post.platform]}</td><td data-label="Account">${accountLabel(post.accountId, accounts)}</td><td data-label="Scheduled">${utcTime(post.scheduledAt)}</td><td data-label="Created">${utcTime(post.createdAt)}</td><td data-label="Text">${excerptOf(post.content)}</td></tr>`,
    ),
  )}</tbody></table>`;
}
