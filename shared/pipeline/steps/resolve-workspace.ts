import { assertScopeCovers, soleWorkspace } from '../../domain/access.js';
import { InvalidRequestError, NotFoundError } from '../../domain/errors.js';
import type { Principal } from '../../domain/tenancy.js';
import type { Operation } from '../../http/operation.js';
import { parseInput } from '../../http/validation-details.js';
import { idOf } from '../../operations/common-schemas.js';
import type { WorkspaceStore } from '../../ports/workspace-store.js';
import type { OperationRequest } from '../operation-request.js';
import { SCHEMA_MISMATCH } from './validate-input.js';

/** Upper bound on workspaces read to answer a workspace-less request for an `all`-scope agent. */
const MAX_IMPLICIT_WORKSPACES = 100;

/** Upper bound on the workspaces one process remembers as existing (oldest forgotten first). */
const MAX_KNOWN_WORKSPACES = 10_000;

/**
 * Workspaces this process has read and found, per store, as `<tenant>/<workspace>`. A workspace is
 * never deleted and its id never reused, so once found it exists for good: an `all`-scope agent's
 * later requests skip the GetItem (a round trip on every request otherwise). Only a workspace
 * found is kept: one that was missing is read again, so a workspace made a moment later is seen;
 * the key carries the tenant, so no workspace answers for another tenant's request.
 */
const knownWorkspaces = new WeakMap<WorkspaceStore, Set<string>>();

async function workspaceExists(tenancy: WorkspaceStore, tenantId: string, workspaceId: string) {
  const key = `${tenantId}/${workspaceId}`;
  let known = knownWorkspaces.get(tenancy);
  if (known?.has(key)) return true;
  const workspace = await tenancy.getWorkspace(tenantId, workspaceId);
  if (!workspace) return false;
  if (!known) {
    known = new Set();
    knownWorkspaces.set(tenancy, known);
  }
  // Oldest first out: a Set keeps insertion order.
  if (known.size >= MAX_KNOWN_WORKSPACES) known.delete(known.values().next().value as string);
  known.add(key);
  return true;
}

/** A workspace the caller may see, or 404: never confirms that another tenant's workspace exists. */
async function visibleWorkspace(tenancy: WorkspaceStore, principal: Principal, workspaceId: string) {
  assertScopeCovers(principal.agent, workspaceId);
  // A `selected` list was checked against the tenant when the agent was made; `all` was not.
  if (
    principal.agent.scope.kind === 'all' &&
    !(await workspaceExists(tenancy, principal.tenant.tenantId, workspaceId))
  )
    throw new NotFoundError();
  return workspaceId;
}

async function accessibleWorkspaces(tenancy: WorkspaceStore, principal: Principal): Promise<string[]> {
  if (principal.agent.scope.kind === 'selected') return principal.agent.scope.workspaceIds;
  const page = await tenancy.listWorkspaces(principal.tenant.tenantId, { limit: MAX_IMPLICIT_WORKSPACES });
  return page.items.map((workspace) => workspace.workspaceId);
}

const workspaceIdFormat = idOf('workspace');

/**
 * The workspace the request names: the path's `workspace_id`, or the short forms' optional
 * `?workspaceId=`. A malformed one is 400 INVALID_REQUEST naming the parameter, as the validator
 * answers for every other id, and is never looked up: only a well-formed id that the caller cannot
 * see is 404.
 */
function namedWorkspace(
  operation: Pick<Operation, 'workspace'>,
  request: OperationRequest,
): string | undefined {
  const [name, value] =
    operation.workspace === 'path'
      ? ['workspace_id', request.params.workspace_id]
      : ['workspaceId', request.query.workspaceId];
  if (operation.workspace === 'implicit' && value === undefined) return undefined;
  const parsed = parseInput(workspaceIdFormat, value, name);
  if (!parsed.success) throw new InvalidRequestError(SCHEMA_MISMATCH, parsed.details);
  return parsed.data;
}

/**
 * Settles which workspace the call is about, before its body is even parsed; undefined for an
 * operation that is not about one workspace.
 */
export async function resolveWorkspace(
  operation: Pick<Operation, 'workspace'>,
  tenancy: WorkspaceStore,
  principal: Principal,
  request: OperationRequest,
): Promise<string | undefined> {
  if (operation.workspace === 'none') return undefined;
  const named = namedWorkspace(operation, request);
  if (named) return visibleWorkspace(tenancy, principal, named);
  return soleWorkspace(await accessibleWorkspaces(tenancy, principal));
}
