import { InvalidRequestError, PermissionDeniedError } from '../../domain/errors.js';
import { isTenantAdmin } from '../../domain/user-access.js';
import type { User, UserRole } from '../../domain/users.js';
import type { IssuedLink } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { requireEmail } from './emails.js';
import { INVITE_LINK_TTL_SECONDS, issueSetPasswordLink } from './links.js';
import { createUserWithoutPassword } from './new-user.js';

/** The roles an invitation may give: owners are made only by the admin CLI's bootstrap. */
export const INVITABLE_ROLES = [
  'super_admin',
  'workspace_admin',
  'viewer',
] as const satisfies readonly UserRole[];
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/** The roles `by` may give: owners and super-admins invite; only an owner invites a super-admin. */
export function rolesInvitableBy(by: User): UserRole[] {
  if (by.role === 'owner') return [...INVITABLE_ROLES];
  if (by.role === 'super_admin') return ['workspace_admin', 'viewer'];
  return [];
}

/** The workspaces a workspace_admin or viewer gets: at least one, each of the tenant's own. */
async function requireWorkspaces(
  deps: UsersDeps,
  tenantId: string,
  workspaceIds: string[],
): Promise<string[]> {
  const unique = [...new Set(workspaceIds)];
  if (unique.length === 0) {
    throw new InvalidRequestError('Choose at least one workspace for this role.', {
      workspaceIds: ['Choose at least one workspace.'],
    });
  }
  const found = await Promise.all(unique.map((id) => deps.tenancy.getWorkspace(tenantId, id)));
  const unknown = unique.filter((_, i) => !found[i]);
  if (unknown.length > 0) {
    throw new InvalidRequestError(`No such workspace: ${unknown.join(', ')}.`, {
      workspaceIds: [`No such workspace: ${unknown.join(', ')}.`],
    });
  }
  return unique;
}

/**
 * A person invited to a tenant: a user without a password and a one-time link (7 days) to set it.
 * Owner and super-admin see every workspace, so their `workspaceIds` stay empty. Who may invite
 * whom is the caller's to check (inviteUser for people, the admin CLI for the operator).
 */
export async function createInvitation(
  deps: UsersDeps,
  input: { tenantId: string; email: string; role: UserRole; workspaceIds: string[]; invitedBy?: string },
): Promise<IssuedLink> {
  const email = requireEmail(input.email);
  if (!(INVITABLE_ROLES as readonly string[]).includes(input.role)) {
    throw new InvalidRequestError('Choose a role: super-admin, workspace admin or viewer.', {
      role: ['Choose super_admin, workspace_admin or viewer.'],
    });
  }
  const workspaceIds =
    input.role === 'super_admin' ? [] : await requireWorkspaces(deps, input.tenantId, input.workspaceIds);
  const user = await createUserWithoutPassword(deps, {
    tenantId: input.tenantId,
    email,
    role: input.role,
    workspaceIds,
    ...(input.invitedBy && { invitedBy: input.invitedBy }),
  });
  deps.logger.info('user invited', {
    tenantId: user.tenantId,
    userId: user.userId,
    role: user.role,
    ...(input.invitedBy && { invitedBy: input.invitedBy }),
  });
  return issueSetPasswordLink(deps, user, INVITE_LINK_TTL_SECONDS);
}

/** An owner or super-admin invites a person; only an owner invites a super-admin. */
export async function inviteUser(
  deps: UsersDeps,
  by: User,
  input: { email: string; role: UserRole; workspaceIds: string[] },
): Promise<IssuedLink> {
  if (!isTenantAdmin(by)) throw new PermissionDeniedError('users:invite');
  if (input.role === 'super_admin' && by.role !== 'owner') {
    throw new PermissionDeniedError('users:invite_super_admin');
  }
  return createInvitation(deps, { ...input, tenantId: by.tenantId, invitedBy: by.userId });
}
