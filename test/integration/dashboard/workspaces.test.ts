import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

/**
 * The workspaces pages over real HTTP: the list each role sees, creating a workspace (tenant
 * admins), its overview, and renaming it (its admins); a viewer changes nothing.
 */
describe('dashboard: workspaces', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let otherWorkspaceId: string;
  let owner: DashboardClient;
  let workspaceAdmin: DashboardClient;
  let viewer: DashboardClient;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Workspaces page' });
    otherWorkspaceId = (await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Sales' }))
      .workspaceId;
    const inTenant = { tenantId: tenant.tenantId };
    ({ client: owner } = await signedInAs(host, { ...inTenant, role: 'owner' }));
    ({ client: workspaceAdmin } = await signedInAs(host, {
      ...inTenant,
      role: 'workspace_admin',
      workspaceIds: [tenant.workspaceId],
    }));
    ({ client: viewer } = await signedInAs(host, {
      ...inTenant,
      role: 'viewer',
      workspaceIds: [tenant.workspaceId],
    }));
  });
  afterAll(() => host?.stop());

  const nameOf = async (workspaceId: string) =>
    (await host.deps.tenancy.getWorkspace(tenant.tenantId, workspaceId))?.name;

  it('lets an owner create a workspace and lands on its page', async () => {
    // Act
    const created = await owner.post('/workspaces', { name: '  Launch <2026> ' });
    const landed = await owner.get(String(created.location));

    // Assess
    expect(created.status).toBe(303);
    const workspaceId = /\/dashboard\/workspaces\/(wks_[0-9A-Z]{26})\?done=created$/.exec(
      String(created.location),
    )?.[1];
    expect(workspaceId).toBeDefined();
    expect(await nameOf(String(workspaceId))).toBe('Launch <2026>');
    expect(landed.status).toBe(200);
    expect(landed.html).toContain('<h1>Launch &lt;2026&gt;</h1>');
    expect(landed.html).toContain('Workspace created.');
    expect(landed.html).toContain(`<code>${workspaceId}</code>`);
    const list = await owner.get('/workspaces');
    expect(list.html).toContain(`href="/dashboard/workspaces/${workspaceId}"`);
    expect(list.html).toContain('Create workspace');
  });

  it('refuses an empty name with 422 and the field error, creating nothing', async () => {
    // Prepare
    const before = (await host.admin.listWorkspaces(tenant.tenantId)).length;

    // Act
    const answer = await owner.post('/workspaces', { name: '   ' });

    // Assess
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('aria-invalid="true"');
    expect(answer.html).toContain('Give it a name.');
    expect((await host.admin.listWorkspaces(tenant.tenantId)).length).toBe(before);
  });

  it('shows a workspace admin only their workspaces and no create form, and refuses a forged create', async () => {
    // Act
    const list = await workspaceAdmin.get('/workspaces');
    const forged = await workspaceAdmin.post('/workspaces', { name: 'Mine now' });

    // Assess
    expect(list.status).toBe(200);
    expect(list.html).toContain(`/dashboard/workspaces/${tenant.workspaceId}"`);
    expect(list.html).not.toContain(otherWorkspaceId);
    expect(list.html).not.toContain('Create workspace');
    expect(forged.status).toBe(403);
    const names = (await host.admin.listWorkspaces(tenant.tenantId)).map((workspace) => workspace.name);
    expect(names).not.toContain('Mine now');
  });

  it('lets a workspace admin rename their workspace, and not another one', async () => {
    // Act
    const renamed = await workspaceAdmin.post(`/workspaces/${tenant.workspaceId}/rename`, {
      name: 'Marketing',
    });
    const page = await workspaceAdmin.get(String(renamed.location));
    const other = await workspaceAdmin.post(`/workspaces/${otherWorkspaceId}/rename`, { name: 'Taken' });

    // Assess
    expect(renamed.status).toBe(303);
    expect(renamed.location).toBe(`/dashboard/workspaces/${tenant.workspaceId}?done=renamed`);
    expect(page.html).toContain('<h1>Marketing</h1>');
    expect(page.html).toContain('Workspace renamed.');
    expect(await nameOf(tenant.workspaceId)).toBe('Marketing');
    expect(other.status).toBe(404);
    expect(await nameOf(otherWorkspaceId)).toBe('Sales');
  });

  it('shows a viewer the overview without the rename form and refuses their rename', async () => {
    // Prepare
    const before = await nameOf(tenant.workspaceId);

    // Act
    const page = await viewer.get(`/workspaces/${tenant.workspaceId}`);
    const forged = await viewer.post(`/workspaces/${tenant.workspaceId}/rename`, { name: 'Viewer was here' });

    // Assess
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('>Rename</button>');
    expect(forged.status).toBe(403);
    expect(await nameOf(tenant.workspaceId)).toBe(before);
  });
});
