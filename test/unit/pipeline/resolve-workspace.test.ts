import { describe, expect, it } from 'vitest';
import type { Workspace } from '../../../shared/domain/tenancy.js';
import type { OperationRequest } from '../../../shared/pipeline/operation-request.js';
import { resolveWorkspace } from '../../../shared/pipeline/steps/resolve-workspace.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { aPrincipal, aWorkspace } from '../support/builders.js';
import { InMemoryTenancyStore } from '../support/in-memory-tenancy-store.js';

/** The in-memory store, counting the workspace reads the step makes. */
class CountingTenancyStore extends InMemoryTenancyStore {
  workspaceReads = 0;
  override async getWorkspace(tenantId: string, workspaceId: string): Promise<Workspace | undefined> {
    this.workspaceReads += 1;
    return super.getWorkspace(tenantId, workspaceId);
  }
}

const onPath = { workspace: 'path' } as const;
const TENANT = 'ten_01JD0000000000000000000000';
const OTHER_TENANT = 'ten_01JD9999999999999999999999';

function requestFor(workspaceId: string): OperationRequest {
  return {
    requestId: 'req_test',
    authorization: undefined,
    params: { workspace_id: workspaceId },
    query: {},
    headers: {},
    readBody: () => undefined,
    logger: silentLogger,
  };
}

const allScope = (tenantId = TENANT) =>
  aPrincipal({ tenant: { tenantId }, agent: { tenantId, scope: { kind: 'all' } } });

describe('resolveWorkspace for an all-scope agent', () => {
  it('reads a workspace once: later requests for it make no read', async () => {
    const tenancy = new CountingTenancyStore();
    await tenancy.putWorkspace(aWorkspace({ tenantId: TENANT, workspaceId: 'wks_A' }));

    for (let i = 0; i < 3; i++)
      expect(await resolveWorkspace(onPath, tenancy, allScope(), requestFor('wks_A'))).toBe('wks_A');
    expect(tenancy.workspaceReads).toBe(1);
  });

  it('reads a missing workspace every time, so one made meanwhile is found', async () => {
    const tenancy = new CountingTenancyStore();
    await expect(resolveWorkspace(onPath, tenancy, allScope(), requestFor('wks_B'))).rejects.toMatchObject({
      code: 'not_found',
    });
    await tenancy.putWorkspace(aWorkspace({ tenantId: TENANT, workspaceId: 'wks_B' }));
    expect(await resolveWorkspace(onPath, tenancy, allScope(), requestFor('wks_B'))).toBe('wks_B');
    expect(tenancy.workspaceReads).toBe(2);
  });

  it("never answers another tenant's request from a workspace it found for one tenant", async () => {
    const tenancy = new CountingTenancyStore();
    await tenancy.putWorkspace(aWorkspace({ tenantId: TENANT, workspaceId: 'wks_A' }));
    await resolveWorkspace(onPath, tenancy, allScope(), requestFor('wks_A'));

    await expect(
      resolveWorkspace(onPath, tenancy, allScope(OTHER_TENANT), requestFor('wks_A')),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps what one store found to that store', async () => {
    const first = new CountingTenancyStore();
    const second = new CountingTenancyStore();
    await first.putWorkspace(aWorkspace({ tenantId: TENANT, workspaceId: 'wks_A' }));
    await resolveWorkspace(onPath, first, allScope(), requestFor('wks_A'));

    await expect(resolveWorkspace(onPath, second, allScope(), requestFor('wks_A'))).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
