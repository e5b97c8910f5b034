import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, PermissionDeniedError } from '../../domain/errors.js';
import { isTenantAdmin } from '../../domain/user-access.js';
import { USER_ROLES, type UserRole } from '../../domain/users.js';
import { rolesInvitableBy } from '../../services/users/invite-user.js';
import { welcomePath } from '../../services/users/links.js';
import type { DashboardEnv } from '../env.js';
import { type FormProblem, listOf, problemFrom, readForm, textOf } from '../forms.js';
import { empty, type Html, html } from '../html.js';
import { forbiddenPage, page } from '../pages.js';
import {
  EMPTY_INVITE,
  type InviteValues,
  inviteForm,
  inviteLinkSection,
  usersTable,
} from '../views/users-pages.js';

const isUserRole = (value: string): value is UserRole => (USER_ROLES as readonly string[]).includes(value);

/** Where one-time links point: the deployment's public address, else the one this request came to. */
function publicBase(c: Context<DashboardEnv>): string {
  return c.var.deps.services.publicBaseUrl ?? new URL(c.req.url).origin;
}

/** The Users page: the table, then what the POST adds above the invite form (a link or a problem). */
async function usersPage(
  c: Context<DashboardEnv>,
  input: { values: InviteValues; problem?: FormProblem; created?: Html; notice?: string },
  status: ContentfulStatusCode = 200,
) {
  const { user } = c.var.signedIn;
  const [users, workspaces] = await Promise.all([
    c.var.deps.auth.listUsers(user),
    c.var.deps.admin.listWorkspaces(user.tenantId),
  ]);
  const form = inviteForm(c, {
    roles: rolesInvitableBy(user),
    workspaces,
    values: input.values,
    ...(input.problem && { problem: input.problem }),
  });
  return page(
    c,
    {
      title: 'Users',
      body: html`${input.created ?? empty}${usersTable(users, workspaces)}${form}`,
      ...(input.notice && { notice: input.notice }),
    },
    status,
  );
}

/** Owners and super-admins see the tenant's people and invite others; anyone else is refused. */
export function registerUserRoutes(app: Hono<DashboardEnv>): void {
  app.get('/users', (c) => {
    if (!isTenantAdmin(c.var.signedIn.user)) return forbiddenPage(c, 'manage users');
    return usersPage(c, { values: EMPTY_INVITE });
  });

  app.post('/users', async (c) => {
    const { user } = c.var.signedIn;
    if (!isTenantAdmin(user)) return forbiddenPage(c, 'manage users');
    const form = await readForm(c);
    const values: InviteValues = {
      email: textOf(form, 'email'),
      role: textOf(form, 'role'),
      workspaceIds: listOf(form, 'workspaceIds'),
    };
    if (!isUserRole(values.role)) {
      const problem = { message: 'Choose a role.', fields: { role: ['Choose a role from the list.'] } };
      return usersPage(c, { values, problem }, 422);
    }
    try {
      const link = await c.var.deps.auth.inviteUser(user, {
        email: values.email,
        role: values.role,
        workspaceIds: [...values.workspaceIds],
      });
      c.var.logger.info('dashboard: invitation link shown once', { invitedUserId: link.user.userId });
      const created = inviteLinkSection({
        email: link.user.email,
        url: `${publicBase(c)}${welcomePath(link.token)}`,
        expiresAt: link.expiresAt,
      });
      return usersPage(c, { values: EMPTY_INVITE, created, notice: `${link.user.email} is invited.` });
    } catch (error) {
      if (error instanceof PermissionDeniedError) return forbiddenPage(c, 'give this role');
      const problem = problemFrom(error);
      const status = error instanceof AppError && error.status === 409 ? 409 : 422;
      return usersPage(c, { values, problem }, status);
    }
  });
}
