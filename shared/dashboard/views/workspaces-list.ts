import type { Context } from 'hono';
import type { Workspace } from '../../domain/tenancy.js';
import type { DashboardEnv } from '../env.js';
import { errorSummary, type FormProblem, postForm, submitButton, textField } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { utcTime } from './time.js';
import { workspacesPath } from './workspaces-format.js';

function workspacesTable(workspaces: readonly Workspace[]): Html {
  if (workspaces.length === 0) return html`<p>No workspaces yet.</p>`;
  return html`<table><caption>Your workspaces</caption><thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Created</th></tr></thead><tbody>${join(
    workspaces.map(
      (workspace) =>
        html`<tr><th scope="row"><a href="${workspacesPath(workspace.workspaceId)}">${workspace.name}</a></th><td><code>${workspace.workspaceId}</code></td><td>${utcTime(workspace.createdAt)}</td></tr>`,
    ),
  )}</tbody></table>`;
}

/**
 * The workspaces the user sees; tenant admins also get the create form (kept filled in after a
 * refusal).
 */
export function workspacesBody(
  c: Context<DashboardEnv>,
  view: { workspaces: readonly Workspace[]; canCreate: boolean; name?: string; problem?: FormProblem },
): Html {
  const create = view.canCreate
    ? html`<section aria-labelledby="create-workspace"><h2 id="create-workspace">New workspace</h2>${errorSummary(view.problem)}${postForm(
        c,
        workspacesPath(),
        html`${textField({ name: 'name', label: 'Name', value: view.name ?? '', required: true, errors: view.problem?.fields })}${submitButton('Create workspace')}`,
      )}</section>`
    : empty;
  return html`${workspacesTable(view.workspaces)}${create}`;
}
