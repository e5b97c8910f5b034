import type { Context } from 'hono';
import type { User } from '../../domain/users.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { errorSummary, type FormProblem, postForm, submitButton, textField } from '../forms.js';
import { empty, type Html, html } from '../html.js';
import { roleLabel } from './users-labels.js';

/** The sign-in form; `next` is a dashboard path already checked by safeNext. */
export function signInForm(
  c: Context<DashboardEnv>,
  input: { email?: string; next?: string; problem?: FormProblem },
): Html {
  return postForm(
    c,
    `${DASHBOARD_BASE}/sign-in`,
    html`${errorSummary(input.problem)}${input.next ? html`<input type="hidden" name="next" value="${input.next}">` : empty}
${textField({ name: 'email', label: 'Email', type: 'email', value: input.email ?? '', required: true, autocomplete: 'username', ...(input.problem && { errors: input.problem.fields }) })}
${textField({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
${submitButton('Sign in')}`,
    { label: 'Sign in' },
  );
}

/** The set-password form of a one-time link: the person sees which account it is for. */
export function setPasswordForm(
  c: Context<DashboardEnv>,
  input: { token: string; email: string; problem?: FormProblem },
): Html {
  const errors = input.problem?.fields;
  return html`<p>Choose a password for <strong>${input.email}</strong>. Then you are signed in.</p>
${postForm(
  c,
  `${DASHBOARD_BASE}/welcome/${input.token}`,
  html`${errorSummary(input.problem)}
${textField({ name: 'password', label: 'New password', type: 'password', required: true, autocomplete: 'new-password', hint: '12 to 200 characters. A few unrelated words make a good one.', ...(errors && { errors }) })}
${textField({ name: 'confirm', label: 'Repeat the password', type: 'password', required: true, autocomplete: 'new-password', ...(errors && { errors }) })}
${submitButton('Set password')}`,
  { label: 'Set your password' },
)}`;
}

export const linkGoneBody: Html = html`<p>The link was used already, or it has expired. Ask the person who invited you for a new one, or <a href="${DASHBOARD_BASE}/sign-in">sign in</a> if you have set your password.</p>`;

/** Your account: who you are, and the password change. */
export function accountBody(c: Context<DashboardEnv>, input: { user: User; problem?: FormProblem }): Html {
  const { user } = input;
  const errors = input.problem?.fields;
  return html`<section aria-labelledby="account-facts"><h2 id="account-facts">You</h2><dl class="facts">
<dt>Email</dt><dd>${user.email}</dd>
<dt>Role</dt><dd>${roleLabel(user.role)}</dd>
<dt>User id</dt><dd><code>${user.userId}</code></dd>
</dl></section>
<section aria-labelledby="change-password"><h2 id="change-password">Change password</h2>
<p>Changing it signs you out everywhere else.</p>
${postForm(
  c,
  `${DASHBOARD_BASE}/me`,
  html`${errorSummary(input.problem)}
${textField({ name: 'currentPassword', label: 'Current password', type: 'password', required: true, autocomplete: 'current-password', ...(errors && { errors }) })}
${textField({ name: 'newPassword', label: 'New password', type: 'password', required: true, autocomplete: 'new-password', hint: '12 to 200 characters.', ...(errors && { errors }) })}
${submitButton('Change password')}`,
  { label: 'Change password' },
)}</section>`;
}
