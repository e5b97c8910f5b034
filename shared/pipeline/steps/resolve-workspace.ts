import { assertScopeCovers, soleWorkspace } from '../../domain/access.js';
import { NotFoundError } from '../../domain/errors.js';
import type { Principal } from '../../domain/tenancy.js';
import type { Operation } from '../../http/operation.js';
import type { TenancyStore } from '../../ports/tenancy-store.js';
import type { OperationRequest } from '../operation-request.js';

/** Upper bound on workspaces read to answer a workspace-less request for an `all`-scope agent. */
const MAX_IMPLICIT_WORKSPACES = 100;

/** A workspace the caller may see, or 404: never confirms that another tenant's workspace exists. */
async function visibleWorkspace(tenancy: TenancyStore, principal: Principal, workspaceId: string) {
  assertScopeCovers(principal.agent, workspaceId);
  // A `selected` list was checked against the tenant when the agent was made; `all` was not.
  if (principal.agent.scope.kind === 'all') {
    const workspace = await tenancy.getWorkspace(principal.tenant.tenantId, workspaceId);
    if (!workspace) throw new NotFoundError();
  }
  return workspaceId;
}

async function accessibleWorkspaces(tenancy: TenancyStore, principal: Principal): Promise<string[]> {
  if (principal.agent.scope.kind === 'selected') return principal.agent.scope.workspaceIds;
  const page = await tenancy.listWorkspaces(principal.tenant.tenantId, { limit: MAX_IMPLICIT_WORKSPACES });
  return page.items.map((workspace) => workspace.workspaceId);
}

function namedWorkspace(operation: Operation, request: OperationRequest): string | undefined {
  const named = operation.workspace === 'path' ? request.params.workspace_id : request.query.workspaceId;
  return typeof named === 'string' && named !== '' ? named : undefined;
}

/**
 * Settles which workspace the call is about, before its body is even parsed; undefined for an
 * operation that is not about one workspace.
 */
export async function resolveWorkspace(
  operation: Operation,
  tenancy: TenancyStore,
  principal: Principal,
  request: OperationRequest,
): Promise<string | undefined> {
  if (operation.workspace === 'none') return undefined;
  const named = namedWorkspace(operation, request);
  if (named) return visibleWorkspace(tenancy, principal, named);
  if (operation.workspace === 'path') throw new NotFoundError();
  return soleWorkspace(await accessibleWorkspaces(tenancy, principal));
}
