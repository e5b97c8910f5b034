import type { Context } from 'hono';
import type { Workspace } from '../../domain/tenancy.js';
import type { DashboardEnv } from '../env.js';
import { errorSummary, type FormProblem, postForm, submitButton, textField } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { utcTime } from './time.js';
import { workspacesPath } from './workspaces-format.js';
import { metricsSettingSection } from './workspaces-metrics-setting.js';

/** What the workspace holds yet, for its next steps; unknown when the reads were refused. */
export interface WorkspaceStart {
  hasAccounts: boolean;
  hasPosts: boolean;
}

/**
 * A workspace without accounts or posts says what to do next, in the order it can be done: connect
 * an account, give an agent a key (or review the policies), then follow the posts.
 */
function nextSteps(workspaceId: string, start: WorkspaceStart | undefined, canChange: boolean): Html {
  if (!start || (start.hasAccounts && start.hasPosts)) return empty;
  const base = workspacesPath(workspaceId);
  const steps: Html[] = [];
  if (!start.hasAccounts) {
    steps.push(
      canChange
        ? html`<li><a href="${base}/accounts">Connect a social account</a>: the networks' own consent pages, or on the local host its sandbox accounts.</li>`
        : html`<li>No social account is connected yet: an administrator of this workspace connects one under <a href="${base}/accounts">Accounts</a>.</li>`,
    );
  }
  if (!start.hasPosts) {
    if (canChange) {
      steps.push(
        html`<li><a href="${base}/agents">Create an agent and an API key</a> for the tool that will post, with only the permissions it needs.</li>`,
        html`<li>Optionally, <a href="${base}/policies">set policies</a> (approval, blocked terms, a posting window) and <a href="${base}/webhooks">add a webhook</a> to hear when posts go out.</li>`,
      );
    }
    steps.push(html`<li>Posts then appear under <a href="${base}/posts">Posts</a>.</li>`);
  }
  return html`<section aria-labelledby="next-steps"><h2 id="next-steps">Get started</h2><ol>${join(steps)}</ol></section>`;
}

/** A workspace's facts, its next steps while it is new, and the rename form for those who administer it. */
export function workspaceOverviewBody(
  c: Context<DashboardEnv>,
  view: {
    workspace: Workspace;
    canRename: boolean;
    start?: WorkspaceStart;
    /** The last 30 days' metrics section, once the workspace has posts. */
    metrics?: Html;
    name?: string;
    problem?: FormProblem;
  },
): Html {
  const { workspace } = view;
  const rename = view.canRename
    ? html`<section aria-labelledby="rename-workspace"><h2 id="rename-workspace">Rename</h2>${errorSummary(view.problem)}${postForm(
        c,
        `${workspacesPath(workspace.workspaceId)}/rename`,
        html`${textField({ name: 'name', label: 'Name', value: view.name ?? workspace.name, required: true, errors: view.problem?.fields })}${submitButton('Rename')}`,
      )}</section>`
    : empty;
  return html`${nextSteps(workspace.workspaceId, view.start, view.canRename)}<dl class="facts"><dt>Id</dt><dd><code>${workspace.workspaceId}</code></dd><dt>Created</dt><dd>${utcTime(workspace.createdAt)}</dd></dl>${view.metrics ?? empty}${metricsSettingSection(c, workspace, view.canRename)}${rename}`;
}
