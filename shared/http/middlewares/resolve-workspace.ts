import { assertScopeCovers, soleWorkspace } from '../../domain/access.js';
import { NotFoundError } from '../../domain/errors.js';
import type { Principal } from '../../domain/tenancy.js';
import type { TenancyStore } from '../../ports/tenancy-store.js';
import type { Operation } from '../operation.js';
import { type ApiMiddleware, stateOf } from '../request-state.js';

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

/** Settles which workspace the request is about, before its body is even parsed. */
export function resolveWorkspace(operation: Operation, tenancy: TenancyStore): ApiMiddleware {
  return {
    before: async (request) => {
      if (operation.workspace === 'none') return;
      const state = stateOf(request);
      const principal = state.principal;
      if (!principal) return;
      const named =
        operation.workspace === 'path'
          ? request.event.pathParameters?.workspace_id
          : request.event.queryStringParameters?.workspaceId;
      if (named) {
        state.workspaceId = await visibleWorkspace(tenancy, principal, named);
        return;
      }
      if (operation.workspace === 'path') throw new NotFoundError();
      state.workspaceId = soleWorkspace(await accessibleWorkspaces(tenancy, principal));
    },
  };
}
