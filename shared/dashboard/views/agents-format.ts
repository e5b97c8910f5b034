import type { Agent, Workspace } from '../../domain/tenancy.js';
import { DASHBOARD_BASE } from '../env.js';

/** Where a workspace's agents live, or the tenant-level ones when no workspace is given. */
export function agentsPath(workspaceId: string | undefined, agentId?: string): string {
  const base = workspaceId
    ? `${DASHBOARD_BASE}/workspaces/${workspaceId}/agents`
    : `${DASHBOARD_BASE}/agents`;
  return agentId ? `${base}/${agentId}` : base;
}

/** The workspaces an agent reaches, by name where the page knows it. */
export function scopeText(agent: Agent, workspaces: readonly Workspace[]): string {
  if (agent.scope.kind === 'all') return 'All workspaces';
  const names = agent.scope.workspaceIds.map(
    (id) => workspaces.find((workspace) => workspace.workspaceId === id)?.name ?? id,
  );
  return agent.lockedWorkspaceId ? `Locked to ${names.join(', ')}` : names.join(', ');
}
