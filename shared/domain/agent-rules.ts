import { InvalidRequestError, PermissionDeniedError } from './errors.js';
import { PERMISSIONS, type Permission } from './permissions.js';
import type { Actor, Agent, AgentScope } from './tenancy.js';

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
  requireSomePermission(permissions);
  const name = agentName(request.name);
  if (request.fromWorkspaceId) {
    if (request.scope) throw new InvalidRequestError('An agent created from a workspace takes no scope.');
    if (actor.role === 'workspace_admin' && actor.workspaceId !== request.fromWorkspaceId) {
      throw new PermissionDeniedError('workspace:admin');
    }
    return {
      name,
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
  requireSomeWorkspace(scope);
  return { name, scope, permissions };
}

/** What an edit may change: absent members stay as they are. */
export interface AgentChange {
  name?: string;
  permissions?: Permission[];
  /** Only for a tenant-level agent: a locked agent keeps its workspace. */
  scope?: AgentScope;
}

/**
 * The agent after an edit, under the same rules as creating it: a workspace admin edits only the
 * agents locked to their workspace; a tenant-level agent needs an owner or super-admin; a locked
 * agent keeps its workspace; only a super-admin grants `all` (an agent that already has it keeps
 * it under an owner's edit of its name or permissions).
 */
export function planAgentChange(actor: Actor, agent: Agent, change: AgentChange): Agent {
  if (agent.lockedWorkspaceId) {
    if (actor.role === 'workspace_admin' && actor.workspaceId !== agent.lockedWorkspaceId) {
      throw new PermissionDeniedError('workspace:admin');
    }
    const keeps =
      !change.scope ||
      (change.scope.kind === 'selected' &&
        change.scope.workspaceIds.length === 1 &&
        change.scope.workspaceIds[0] === agent.lockedWorkspaceId);
    if (!keeps) throw new InvalidRequestError('An agent locked to a workspace keeps its workspace.');
  } else {
    if (actor.role === 'workspace_admin') throw new PermissionDeniedError('tenant:admin');
    if (change.scope) {
      if (change.scope.kind === 'all' && agent.scope.kind !== 'all' && actor.role !== 'super_admin') {
        throw new PermissionDeniedError('tenant:super_admin');
      }
      requireSomeWorkspace(change.scope);
    }
  }
  if (change.permissions) requireSomePermission(change.permissions);
  const name = change.name === undefined ? undefined : agentName(change.name);
  return {
    ...agent,
    ...(name && { name }),
    ...(change.permissions && { permissions: [...new Set(change.permissions)] }),
    ...(change.scope && !agent.lockedWorkspaceId && { scope: change.scope }),
  };
}

export const MAX_AGENT_NAME_LENGTH = 100;

/** An agent's name, trimmed: not empty, not too long. */
function agentName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '')
    throw new InvalidRequestError('An agent needs a name.', { name: ['Give the agent a name.'] });
  if (trimmed.length > MAX_AGENT_NAME_LENGTH) {
    throw new InvalidRequestError(`An agent name has at most ${MAX_AGENT_NAME_LENGTH} characters.`, {
      name: [`At most ${MAX_AGENT_NAME_LENGTH} characters.`],
    });
  }
  return trimmed;
}

function requireSomePermission(permissions: readonly Permission[]): void {
  if (permissions.length === 0) {
    throw new InvalidRequestError('An agent needs at least one permission.', {
      permissions: ['Tick at least one permission.'],
    });
  }
}

function requireSomeWorkspace(scope: AgentScope): void {
  if (scope.kind === 'selected' && scope.workspaceIds.length === 0) {
    throw new InvalidRequestError('A selected scope names at least one workspace.', {
      workspaceIds: ['Tick at least one workspace, or choose all workspaces.'],
    });
  }
}
