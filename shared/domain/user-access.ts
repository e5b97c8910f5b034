import { PERMISSIONS, type Permission } from './permissions.js';
import type { Actor, Agent, Principal, Tenant } from './tenancy.js';
import type { User } from './users.js';

/** Owner and super-admin act for the whole tenant. */
export function isTenantAdmin(user: User): boolean {
  return user.role === 'owner' || user.role === 'super_admin';
}

/** Whether the user may see the workspace at all (else the dashboard answers 404, as the API does). */
export function seesWorkspace(user: User, workspaceId: string): boolean {
  return isTenantAdmin(user) || user.workspaceIds.includes(workspaceId);
}

/** Whether the user may change things in the workspace: accounts, agents, keys, policies, posts, webhooks. */
export function adminsWorkspace(user: User, workspaceId: string): boolean {
  return isTenantAdmin(user) || (user.role === 'workspace_admin' && user.workspaceIds.includes(workspaceId));
}

/**
 * The Actor of the agent rules (shared/domain/agent-rules.ts) for this user acting on `workspaceId`
 * (or at tenant level when undefined); undefined when the user may not administer agents there.
 */
export function actorFor(user: User, workspaceId?: string): Actor | undefined {
  if (user.role === 'owner' || user.role === 'super_admin') return { role: user.role };
  if (workspaceId && adminsWorkspace(user, workspaceId)) return { role: 'workspace_admin', workspaceId };
  return undefined;
}

const VIEWER_PERMISSIONS: readonly Permission[] = ['posts:read', 'accounts:read'];

/**
 * The principal a signed-in user's dashboard actions run as through the operation pipeline: the
 * same isolation as an API key (scope = the workspaces the user sees; a viewer only reads). The
 * agent id is the user's id, so what they decide (an approval's `decidedBy`) names them.
 */
export function principalFor(user: User, tenant: Tenant): Principal {
  const agent: Agent = {
    agentId: user.userId,
    tenantId: tenant.tenantId,
    name: user.email,
    scope: isTenantAdmin(user) ? { kind: 'all' } : { kind: 'selected', workspaceIds: user.workspaceIds },
    permissions: user.role === 'viewer' ? [...VIEWER_PERMISSIONS] : [...PERMISSIONS],
    createdAt: user.createdAt,
  };
  return { tenant, agent, keyId: 'dashboard' };
}
