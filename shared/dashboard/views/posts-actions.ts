import type { Context } from 'hono';
import type { DashboardEnv } from '../env.js';
import { DASHBOARD_BASE } from '../env.js';
import {
  errorSummary,
  type FormProblem,
  postForm,
  selectField,
  submitButton,
  textArea,
  textField,
} from '../forms.js';
import { empty, type Html, html } from '../html.js';
import type { PostResource } from './posts-list.js';

/** What updatePost changes (the API's rule: anything else is 409 conflict). */
const CHANGEABLE = new Set(['draft', 'pending_approval', 'scheduled']);
/** What cancelPost cancels. */
const CANCELLABLE = new Set(['draft', 'pending_approval', 'scheduled', 'queued']);

export const canEditPost = (post: PostResource) => CHANGEABLE.has(post.status);
export const canCancelPost = (post: PostResource) => CANCELLABLE.has(post.status);

export const postPath = (workspaceId: string, postId: string) =>
  `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/${postId}`;

/** A stored time as a `datetime-local` value in UTC (what the forms read back as UTC). */
export function inputFromUtc(value: string | null | undefined): string {
  return value ? value.slice(0, 16) : '';
}

/** What the edit form holds: shown again, as typed, after a refusal. */
export interface PostEditValues {
  content: string;
  scheduledAt: string;
  status: string;
}

export function editValuesOf(post: PostResource): PostEditValues {
  return {
    content: typeof post.content === 'string' ? post.content : '',
    scheduledAt: inputFromUtc(post.scheduledAt),
    status: '',
  };
}

/** The choices of the Status field: keep it, or submit it another way (REQUESTED_STATUSES). */
function statusChoices(post: PostResource) {
  return [
    { value: '', label: `Keep as ${post.status.replace('_', ' ')}` },
    ...(post.status === 'draft' ? [] : [{ value: 'draft', label: 'Back to draft' }]),
    { value: 'scheduled', label: 'Schedule at the time above' },
    { value: 'publish', label: 'Publish now' },
  ];
}

export interface PostActionsView {
  post: PostResource;
  values?: PostEditValues;
  problem?: FormProblem;
}

/**
 * The forms of a post's page for those who administer its workspace: edit (text, time, status),
 * reschedule (the time only), cancel. Each runs the API's operation (updatePost, cancelPost), which
 * decides; the forms only leave out what the post's status rules out.
 */
export function postActions(c: Context<DashboardEnv>, workspaceId: string, view: PostActionsView): Html {
  const { post } = view;
  const path = postPath(workspaceId, post.id);
  const values = view.values ?? editValuesOf(post);
  const errors = view.problem?.fields;
  const textual = typeof post.content === 'string';
  const edit = canEditPost(post)
    ? html`<section aria-labelledby="edit-heading"><h2 id="edit-heading">Edit</h2>${errorSummary(view.problem)}${postForm(
        c,
        `${path}/edit`,
        html`${
          textual
            ? textArea({ name: 'content', label: 'Text', value: values.content, rows: 6, errors })
            : html`<p class="hint">A thread's or carousel's items are changed through the API (updatePost with <code>content</code>); the time and status change here.</p>`
        }${textField({
          name: 'scheduledAt',
          label: 'Scheduled at',
          type: 'datetime-local',
          hint: 'UTC. Leave empty on a draft to keep it unscheduled.',
          value: values.scheduledAt,
          errors,
        })}${selectField({ name: 'status', label: 'Status', choices: statusChoices(post), value: values.status, errors })}${submitButton('Save changes')}`,
        { label: 'Edit post' },
      )}</section>`
    : empty;
  const reschedule =
    post.status === 'scheduled' || post.status === 'pending_approval'
      ? html`<section aria-labelledby="reschedule-heading"><h2 id="reschedule-heading">Reschedule</h2>${postForm(
          c,
          `${path}/reschedule`,
          // Its own field name: the Edit form above has a Scheduled at of its own (ids stay unique).
          html`${textField({
            name: `scheduledAt-${post.id}`,
            label: 'New time',
            type: 'datetime-local',
            hint: 'UTC.',
            value: inputFromUtc(post.scheduledAt),
            required: true,
          })}${submitButton('Reschedule')}`,
          { label: 'Reschedule post' },
        )}</section>`
      : empty;
  const cancel = canCancelPost(post)
    ? html`<section aria-labelledby="cancel-heading"><h2 id="cancel-heading">Cancel</h2><p>A cancelled post is never sent; it stays readable here.</p>${postForm(
        c,
        `${path}/cancel`,
        submitButton('Cancel post', { danger: true }),
        { confirm: 'Cancel this post? It will never be sent.', label: 'Cancel post' },
      )}</section>`
    : empty;
  return html`${edit}${reschedule}${cancel}`;
}
