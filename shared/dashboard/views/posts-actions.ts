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
import { empty, type Html, html, join } from '../html.js';
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
  /** A thread's or carousel's parts' texts, in order (empty for a single text). */
  items: string[];
  scheduledAt: string;
  status: string;
}

export function editValuesOf(post: PostResource): PostEditValues {
  return {
    content: typeof post.content === 'string' ? post.content : '',
    items: typeof post.content === 'string' ? [] : post.content.map((item) => item.text ?? ''),
    scheduledAt: inputFromUtc(post.scheduledAt),
    status: '',
  };
}

/**
 * The form field of a part's text, named as the API names it in its errors (`content[1].text`):
 * the API's own details land beside the field without translation.
 */
export const itemTextField = (index: number) => `content[${index}].text`;

/**
 * The refusal as the Parts fields show it. What the API says of a part as a whole (`content[1]`:
 * "needs text or media") or of its media (`content[0].media`, `content[0].media[2]`) is said beside
 * that part's text field, the part's only field here, naming what it is about; the summary's link
 * then leads to a field that exists.
 */
function withPartErrors(problem: FormProblem | undefined): FormProblem | undefined {
  if (!problem) return undefined;
  const fields: Record<string, readonly string[] | undefined> = {};
  for (const [name, messages] of Object.entries(problem.fields)) {
    const part = /^content\[(\d+)\](?:\.(.+))?$/.exec(name);
    const target = part ? itemTextField(Number(part[1])) : name;
    const about = part?.[2] && part[2] !== 'text' ? `${part[2]}: ` : '';
    fields[target] = [...(fields[target] ?? []), ...(messages ?? []).map((message) => `${about}${message}`)];
  }
  return { message: problem.message, fields };
}

type MediaOfItem = NonNullable<Extract<PostResource['content'], readonly unknown[]>[number]['media']>;

/** What stays with a part: its media and their alt text, said beside its text field. */
function keptMedia(media: MediaOfItem | undefined): string | undefined {
  if (!media || media.length === 0) return undefined;
  const described = media.map(
    (ref) =>
      `${ref.type ? `${ref.type} ` : ''}${ref.id ?? ref.url ?? ''}${ref.alt ? ` (alt: ${ref.alt})` : ''}`,
  );
  return `Its media stay as they are: ${described.join('; ')}.`;
}

/** One text field per part of a thread or carousel; a refusal of the whole list is said above them. */
function partFields(
  items: Extract<PostResource['content'], readonly unknown[]>,
  values: PostEditValues,
  errors: FormProblem['fields'] | undefined,
): Html {
  const listMessages = errors?.content;
  return html`<fieldset class="field" id="field-content"${
    listMessages && listMessages.length > 0 ? html` aria-describedby="field-content-error"` : empty
  }><legend>Parts</legend><p class="hint">The text of each part, in order; media and alt text are kept. Adding or removing parts goes through the API (updatePost with <code>content</code>).</p>${
    listMessages && listMessages.length > 0
      ? html`<p class="field-error" id="field-content-error">${listMessages.join(' ')}</p>`
      : empty
  }${join(
    items.map((item, index) => {
      const hint = keptMedia(item.media);
      return textArea({
        name: itemTextField(index),
        label: `Part ${index + 1}`,
        value: values.items[index] ?? item.text ?? '',
        rows: 3,
        ...(hint && { hint }),
        ...(errors && { errors }),
      });
    }),
  )}</fieldset>`;
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
 * The forms of a post's page for those who administer its workspace: edit (the text, or each part's
 * text of a thread or carousel; the time; the status),
 * reschedule (the time only), cancel. Each runs the API's operation (updatePost, cancelPost), which
 * decides; the forms only leave out what the post's status rules out.
 */
export function postActions(c: Context<DashboardEnv>, workspaceId: string, view: PostActionsView): Html {
  const { post } = view;
  const path = postPath(workspaceId, post.id);
  const values = view.values ?? editValuesOf(post);
  const problem = withPartErrors(view.problem);
  const errors = problem?.fields;
  const edit = canEditPost(post)
    ? html`<section aria-labelledby="edit-heading"><h2 id="edit-heading">Edit</h2>${errorSummary(problem)}${postForm(
        c,
        `${path}/edit`,
        html`${
          typeof post.content === 'string'
            ? textArea({ name: 'content', label: 'Text', value: values.content, rows: 6, errors })
            : partFields(post.content, values, errors)
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
