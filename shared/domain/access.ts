import { NotFoundError, PermissionDeniedError, PlanInactiveError, WorkspaceRequiredError } from './errors.js';
import type { Permission } from './permissions.js';
import type { Agent, Principal } from './tenancy.js';

/** Throws unless the caller's tenant may use the API at all. */
export function assertPlanActive(principal: Principal): void {
  if (principal.tenant.planStatus !== 'active') throw new PlanInactiveError();
}

export function assertPermission(agent: Agent, required: Permission): void {
  if (!agent.permissions.includes(required)) throw new PermissionDeniedError(required);
}

/**
 * Whether the agent's scope covers the workspace. For `all` the caller must still check that the
 * workspace belongs to the tenant; for `selected` the list was checked when the agent was made.
 */
export function scopeCovers(agent: Agent, workspaceId: string): boolean {
  return agent.scope.kind === 'all' || agent.scope.workspaceIds.includes(workspaceId);
}

export function assertScopeCovers(agent: Agent, workspaceId: string): void {
  // 404, not 403: a caller must not learn that a workspace it cannot see exists.
  if (!scopeCovers(agent, workspaceId)) throw new NotFoundError();
}

/** The one workspace a workspace-less request means, or workspace_required with the choices. */
export function soleWorkspace(accessible: string[]): string {
  if (accessible.length === 1 && accessible[0]) return accessible[0];
  if (accessible.length === 0) throw new NotFoundError('This API key cannot access any workspace.');
  throw new WorkspaceRequiredError(accessible);
}
