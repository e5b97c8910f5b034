import type { Context } from 'hono';
import type { Workspace } from '../../domain/tenancy.js';
import type { DashboardEnv } from '../env.js';
import { errorSummary, type FormProblem, postForm, submitButton, textField } from '../forms.js';
import { empty, type Html, html } from '../html.js';
import { utcTime } from './time.js';
import { workspacesPath } from './workspaces-format.js';

/** A workspace's facts, and the rename form for those who administer it. */
export function workspaceOverviewBody(
  c: Context<DashboardEnv>,
  view: { workspace: Workspace; canRename: boolean; name?: string; problem?: FormProblem },
): Html {
  const { workspace } = view;
  const rename = view.canRename
    ? html`<section aria-labelledby="rename-workspace"><h2 id="rename-workspace">Rename</h2>${errorSummary(view.problem)}${postForm(
        c,
        `${workspacesPath(workspace.workspaceId)}/rename`,
        html`${textField({ name: 'name', label: 'Name', value: view.name ?? workspace.name, required: true, errors: view.problem?.fields })}${submitButton('Rename')}`,
      )}</section>`
    : empty;
  return html`<dl class="facts"><dt>Id</dt><dd><code>${workspace.workspaceId}</code></dd><dt>Created</dt><dd>${utcTime(workspace.createdAt)}</dd></dl>${rename}`;
}
