import type { Context } from 'hono';
import type { Workspace } from '../../domain/tenancy.js';
import type { UserRole, UserView } from '../../domain/users.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import {
  checkboxGroup,
  errorSummary,
  type FormProblem,
  postForm,
  selectField,
  submitButton,
  textField,
} from '../forms.js';
import { type Html, html, join } from '../html.js';
import { utcTime } from './time.js';
import { roleLabel } from './users-labels.js';

/** What the invite form holds: on a refusal, what the person typed. */
export interface InviteValues {
  email: string;
  role: string;
  workspaceIds: readonly string[];
}

export const EMPTY_INVITE: InviteValues = { email: '', role: 'workspace_admin', workspaceIds: [] };

/**
 * A user has set a password once their session epoch moved: it starts at 0 and only setting a
 * password bumps it (the page never sees the hash itself).
 */
const hasPassword = (user: UserView) => user.sessionEpoch > 0;

function workspaceNames(user: UserView, workspaces: readonly Workspace[]): string {
  if (user.role === 'owner' || user.role === 'super_admin') return 'All';
  const byId = new Map(workspaces.map((w) => [w.workspaceId, w.name]));
  return user.workspaceIds.map((id) => byId.get(id) ?? id).join(', ');
}

export function usersTable(users: readonly UserView[], workspaces: readonly Workspace[]): Html {
  const emails = new Map(users.map((u) => [u.userId, u.email]));
  return html`<table><caption>People of this tenant</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Workspaces</th><th scope="col">Status</th><th scope="col">Invited by</th><th scope="col">Created</th></tr></thead>
<tbody>${join(
    users.map(
      (user) =>
        html`<tr><th scope="row">${user.email}</th><td>${roleLabel(user.role)}</td><td>${workspaceNames(user, workspaces)}</td><td>${
          hasPassword(user)
            ? html`<span class="badge good">Active</span>`
            : html`<span class="badge">Invited</span>`
        }</td><td>${user.invitedBy ? (emails.get(user.invitedBy) ?? user.invitedBy) : ''}</td><td>${utcTime(user.createdAt)}</td></tr>`,
    ),
  )}</tbody></table>`;
}

export function inviteForm(
  c: Context<DashboardEnv>,
  input: {
    roles: readonly UserRole[];
    workspaces: readonly Workspace[];
    values: InviteValues;
    problem?: FormProblem;
  },
): Html {
  const errors = input.problem?.fields;
  return html`<section aria-labelledby="invite"><h2 id="invite">Invite someone</h2>
<p>They get a one-time link, valid for 7 days, to set their password. Workspace admins and viewers see only the workspaces you tick.</p>
${postForm(
  c,
  `${DASHBOARD_BASE}/users`,
  html`${errorSummary(input.problem)}
${textField({ name: 'email', label: 'Email', type: 'email', value: input.values.email, required: true, autocomplete: 'off', ...(errors && { errors }) })}
${selectField({
  name: 'role',
  label: 'Role',
  choices: input.roles.map((role) => ({ value: role, label: roleLabel(role) })),
  value: input.values.role,
  ...(errors && { errors }),
})}
${checkboxGroup({
  name: 'workspaceIds',
  legend: 'Workspaces',
  choices: input.workspaces.map((w) => ({ value: w.workspaceId, label: w.name })),
  checked: input.values.workspaceIds,
  ...(errors && { errors }),
})}
${submitButton('Invite')}`,
  { label: 'Invite someone' },
)}</section>`;
}

/** The invitation's link, once: only its hash is stored, so this is the only chance to copy it. */
export function inviteLinkSection(input: { email: string; url: string; expiresAt: string }): Html {
  return html`<section aria-labelledby="invite-link"><h2 id="invite-link">Invitation link</h2>
<p>Send this link to <strong>${input.email}</strong>. It works once, until ${utcTime(input.expiresAt)}.</p>
<p class="secret" id="new-secret">${input.url}</p><button type="button" data-copy="new-secret" class="secondary">Copy</button>
<p><strong>Copy it now: it will not be shown again.</strong></p></section>`;
}
