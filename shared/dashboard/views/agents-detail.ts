import type { Context } from 'hono';
import type { Agent, Workspace } from '../../domain/tenancy.js';
import type { ApiKeyView } from '../../services/admin.js';
import type { DashboardEnv } from '../env.js';
import { errorSummary, type FormProblem, postForm, submitButton } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { type AgentFormValues, agentFields, type ScopeChoices } from './agents-form.js';
import { agentsPath, scopeText } from './agents-format.js';
import { utcTime } from './time.js';

export interface AgentDetailView {
  agent: Agent;
  keys: readonly ApiKeyView[];
  /** The workspace the agent is locked to, when it is reached from there. */
  workspaceId?: string;
  scopes?: ScopeChoices;
  /** Workspaces the scope may name, to show their names (the tenant's page has them in `scopes`). */
  known?: readonly Workspace[];
  /** Absent: the user only reads. */
  edit?: { values: AgentFormValues; problem?: FormProblem };
  /** Just created: the only time the key is shown. */
  newKey?: string;
}

function newKeySection(plaintext: string): Html {
  return html`<section aria-labelledby="new-key"><h2 id="new-key">New API key</h2>
<p class="secret" id="new-secret">${plaintext}</p><button type="button" data-copy="new-secret" class="secondary">Copy</button>
<p><strong>Copy it now: it will not be shown again.</strong> Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p></section>`;
}

function keysTable(c: Context<DashboardEnv>, view: AgentDetailView): Html {
  if (view.keys.length === 0) return html`<p>This agent has no API keys yet.</p>`;
  const base = agentsPath(view.workspaceId, view.agent.agentId);
  return html`<table><caption>API keys</caption><thead><tr><th scope="col">Id</th><th scope="col">Hint</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Revoked</th>${
    view.edit ? html`<th scope="col">Actions</th>` : empty
  }</tr></thead><tbody>${join(
    view.keys.map(
      (key) =>
        html`<tr><th scope="row"><code>${key.keyId}</code></th><td><code>…${key.hint}</code></td><td>${utcTime(key.createdAt)}</td><td>${
          key.lastUsedAt ? utcTime(key.lastUsedAt) : 'Never'
        }</td><td>${key.revokedAt ? utcTime(key.revokedAt) : 'No'}</td>${
          view.edit
            ? html`<td>${
                key.revokedAt
                  ? empty
                  : postForm(
                      c,
                      `${base}/keys/${key.keyId}/revoke`,
                      submitButton('Revoke', { danger: true }),
                      {
                        confirm: `Revoke the key ending ${key.hint}? Requests with it will be refused.`,
                        label: `Revoke key ${key.keyId}`,
                        inline: true,
                      },
                    )
              }</td>`
            : empty
        }</tr>`,
    ),
  )}</tbody></table>`;
}

/** An agent: its facts, the edit form, its keys, and the key just created if any. */
export function agentDetailBody(c: Context<DashboardEnv>, view: AgentDetailView): Html {
  const { agent } = view;
  const base = agentsPath(view.workspaceId, agent.agentId);
  const facts = html`<dl class="facts"><dt>Id</dt><dd><code>${agent.agentId}</code></dd><dt>Scope</dt><dd>${scopeText(
    agent,
    view.scopes?.workspaces ?? view.known ?? [],
  )}</dd><dt>Permissions</dt><dd>${agent.permissions.join(', ')}</dd><dt>Created</dt><dd>${utcTime(agent.createdAt)}</dd></dl>`;
  const edit = view.edit
    ? html`<section aria-labelledby="edit-agent"><h2 id="edit-agent">Edit</h2>${errorSummary(view.edit.problem)}${postForm(
        c,
        base,
        html`${agentFields(view.edit.values, view.scopes, view.edit.problem?.fields)}${submitButton('Save agent')}`,
      )}</section>`
    : empty;
  const keyActions = view.edit
    ? postForm(c, `${base}/keys`, submitButton('Create API key'), { label: 'Create API key' })
    : empty;
  const remove = view.edit
    ? html`<section aria-labelledby="delete-agent"><h2 id="delete-agent">Delete</h2><p>Deleting the agent refuses every request made with its keys.</p>${postForm(
        c,
        `${base}/delete`,
        submitButton('Delete agent', { danger: true }),
        { confirm: `Delete the agent ${agent.name}? Its keys stop working.`, label: 'Delete agent' },
      )}</section>`
    : empty;
  return html`${view.newKey ? newKeySection(view.newKey) : empty}${facts}${edit}<section aria-labelledby="api-keys"><h2 id="api-keys">API keys</h2>${keysTable(
    c,
    view,
  )}${keyActions}</section>${remove}`;
}
