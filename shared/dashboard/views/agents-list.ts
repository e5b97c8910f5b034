import type { Context } from 'hono';
import type { Agent, Workspace } from '../../domain/tenancy.js';
import type { DashboardEnv } from '../env.js';
import { errorSummary, type FormProblem, postForm, submitButton } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { type AgentFormValues, agentFields, type ScopeChoices } from './agents-form.js';
import { agentsPath, scopeText } from './agents-format.js';
import { utcTime } from './time.js';

export interface AgentsListView {
  agents: readonly Agent[];
  /** The workspace whose locked agents these are; absent for the tenant-level agents. */
  workspaceId?: string;
  /** Tenant-level only: the scope choices, and the names the scope column shows. */
  scopes?: ScopeChoices;
  /** Absent: the user only reads (a viewer). */
  create?: { values: AgentFormValues; problem?: FormProblem };
}

function agentsTable(view: AgentsListView): Html {
  if (view.agents.length === 0) return html`<p>No agents yet.</p>`;
  const workspaces: readonly Workspace[] = view.scopes?.workspaces ?? [];
  return html`<table><caption>Agents</caption><thead><tr><th scope="col">Name</th>${
    view.scopes ? html`<th scope="col">Scope</th>` : empty
  }<th scope="col">Permissions</th><th scope="col">Created</th></tr></thead><tbody>${join(
    view.agents.map(
      (agent) =>
        html`<tr><th scope="row"><a href="${agentsPath(view.workspaceId, agent.agentId)}">${agent.name}</a></th>${
          view.scopes ? html`<td>${scopeText(agent, workspaces)}</td>` : empty
        }<td>${agent.permissions.join(', ')}</td><td>${utcTime(agent.createdAt)}</td></tr>`,
    ),
  )}</tbody></table>`;
}

/** The agents of a workspace or of the tenant, and the form that creates one. */
export function agentsListBody(c: Context<DashboardEnv>, view: AgentsListView): Html {
  const create = view.create
    ? html`<section aria-labelledby="create-agent"><h2 id="create-agent">New agent</h2>${
        view.workspaceId ? html`<p>An agent created here is locked to this workspace.</p>` : empty
      }${errorSummary(view.create.problem)}${postForm(
        c,
        agentsPath(view.workspaceId),
        html`${agentFields(view.create.values, view.scopes, view.create.problem?.fields)}${submitButton('Create agent')}`,
      )}</section>`
    : empty;
  return html`${agentsTable(view)}${create}`;
}
