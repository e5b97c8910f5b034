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

describe('resolveWorkspace with a malformed workspace id', () => {
  const implicit = { workspace: 'implicit' } as const;
  const withQuery = (query: Record<string, unknown>): OperationRequest => ({
    ...requestFor('wks_A'),
    params: {},
    query,
  });

  it.each([
    ['a foreign prefix', 'pst_A'],
    ['no prefix', 'not-an-id'],
    ['an empty id', ''],
    ['no id at all', undefined],
  ])(
    'answers 400 INVALID_REQUEST naming workspace_id in the path for %s, and reads nothing',
    async (_name, id) => {
      const tenancy = new CountingTenancyStore();
      const request = { ...requestFor('wks_A'), params: { workspace_id: id } };
      await expect(resolveWorkspace(onPath, tenancy, allScope(), request)).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        details: { workspace_id: [expect.any(String)] },
      });
      expect(tenancy.workspaceReads).toBe(0);
    },
  );

  it('says which prefix a workspace id has', async () => {
    const request = { ...requestFor('wks_A'), params: { workspace_id: 'pst_A' } };
    await expect(
      resolveWorkspace(onPath, new CountingTenancyStore(), allScope(), request),
    ).rejects.toMatchObject({ details: { workspace_id: ['Expected an id starting with wks_.'] } });
  });

  it.each([
    ['a foreign prefix', 'pst_A'],
    ['an empty value', ''],
  ])("answers 400 naming workspaceId for %s in the short forms' query", async (_name, id) => {
    const tenancy = new CountingTenancyStore();
    await expect(
      resolveWorkspace(implicit, tenancy, allScope(), withQuery({ workspaceId: id })),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', details: { workspaceId: [expect.any(String)] } });
    expect(tenancy.workspaceReads).toBe(0);
  });

  it('still takes the only workspace when the short form names none, and 404s a well-formed unknown one', async () => {
    const tenancy = new CountingTenancyStore();
    await tenancy.putWorkspace(aWorkspace({ tenantId: TENANT, workspaceId: 'wks_A' }));
    expect(await resolveWorkspace(implicit, tenancy, allScope(), withQuery({}))).toBe('wks_A');
    await expect(
      resolveWorkspace(implicit, tenancy, allScope(), withQuery({ workspaceId: 'wks_Unknown' })),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
