import { InvalidRequestError, PermissionDeniedError } from './errors.js';
import { PERMISSIONS, type Permission } from './permissions.js';
import type { Actor, AgentScope } from './tenancy.js';

export interface AgentRequest {
  name: string;
  /** Created from a workspace: the agent is locked to it. */
  fromWorkspaceId?: string;
  /** Created at tenant level: `all` or a list of workspaces. */
  scope?: AgentScope;
  permissions?: Permission[];
}

export interface AgentPlan {
  name: string;
  scope: AgentScope;
  permissions: Permission[];
  lockedWorkspaceId?: string;
}

/**
 * Decides the agent an actor may create (interface 5.3–5.4): an agent made from a workspace is
 * locked to it; a tenant-level agent needs an owner or super-admin; only a super-admin grants `all`.
 */
export function planAgent(actor: Actor, request: AgentRequest): AgentPlan {
  const permissions = request.permissions ?? [...PERMISSIONS];
  if (request.fromWorkspaceId) {
    if (request.scope) throw new InvalidRequestError('An agent created from a workspace takes no scope.');
    if (actor.role === 'workspace_admin' && actor.workspaceId !== request.fromWorkspaceId) {
      throw new PermissionDeniedError('workspace:admin');
    }
    return {
      name: request.name,
      scope: { kind: 'selected', workspaceIds: [request.fromWorkspaceId] },
      permissions,
      lockedWorkspaceId: request.fromWorkspaceId,
    };
  }
  if (actor.role === 'workspace_admin') throw new PermissionDeniedError('tenant:admin');
  const scope = request.scope;
  if (!scope)
    throw new InvalidRequestError('A tenant-level agent needs a scope: selected workspaces or all.');
  if (scope.kind === 'all' && actor.role !== 'super_admin')
    throw new PermissionDeniedError('tenant:super_admin');
  if (scope.kind === 'selected' && scope.workspaceIds.length === 0) {
    throw new InvalidRequestError('A selected scope names at least one workspace.');
  }
  return { name: request.name, scope, permissions };
}
