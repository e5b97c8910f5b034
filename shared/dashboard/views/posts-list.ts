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

export function postsTable(workspaceId: string, posts: readonly PostResource[]): Html {
  if (posts.length === 0) return html`<p>No posts match.</p>`;
  const base = `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts`;
  return html`<table><caption>Posts</caption><thead><tr><th scope="col">Post</th><th scope="col">Status</th><th scope="col">Platform</th><th scope="col">Account</th><th scope="col">Scheduled</th><th scope="col">Created</th><th scope="col">Text</th></tr></thead><tbody>${join(
    posts.map(
      (post) =>
        html`<tr><th scope="row"><a href="${base}/${post.id}">${post.id}</a></th><td>${post.status}</td><td>${NETWORK_NAMES[post.platform]}</td><td><code>${post.accountId}</code></td><td>${utcTime(post.scheduledAt)}</td><td>${utcTime(post.createdAt)}</td><td>${excerptOf(post.content)}</td></tr>`,
    ),
  )}</tbody></table>`;
}
