import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

/**
 * The workspace page's metrics collection setting over real HTTP: what it shows by default (X,
 * billed per read, off), a workspace admin's change read back through the API, a viewer refused.
 */
describe('dashboard: the workspace’s metrics collection setting', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let viewer: DashboardClient;
  const readOverApi = async () => {
    const response = await host.call('/v1/workspaces', { apiKey: tenant.apiKey });
    const body = (await response.json()) as { data: { metricsCollection: unknown }[] };
    return body.data[0]?.metricsCollection;
  };

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Metrics setting' });
    const inTenant = { tenantId: tenant.tenantId, workspaceIds: [tenant.workspaceId] };
    ({ client: admin } = await signedInAs(host, { ...inTenant, role: 'workspace_admin' }));
    ({ client: viewer } = await signedInAs(host, { ...inTenant, role: 'viewer' }));
  });
  afterAll(() => host?.stop());

  it('by default collects every network but X, whose reads are billed, and says so', async () => {
    const page = await admin.get(`/workspaces/${tenant.workspaceId}`);

    expect(page.html).toContain('Metrics collection');
    expect(page.html).toContain('X (each read is billed by the network)');
    expect(page.html).toMatch(/value="youtube" checked/);
    expect(page.html).not.toMatch(/value="twitter" checked/);
    expect(await readOverApi()).toEqual({
      platforms: ['linkedin', 'instagram', 'tiktok', 'youtube', 'bluesky', 'facebook', 'threads'],
      isDefault: true,
    });
  });

  it('a workspace admin chooses the networks; the API reads the choice back', async () => {
    const saved = await admin.post(`/workspaces/${tenant.workspaceId}/metrics-collection`, {
      platforms: ['twitter', 'youtube'],
    });
    const page = await admin.get(String(saved.location));

    expect(saved.status).toBe(303);
    expect(page.html).toContain('Metrics collection saved.');
    expect(page.html).toMatch(/value="twitter" checked/);
    expect(await readOverApi()).toEqual({ platforms: ['twitter', 'youtube'], isDefault: false });

    // None ticked: collection off for the workspace.
    await admin.post(`/workspaces/${tenant.workspaceId}/metrics-collection`, {});
    expect(await readOverApi()).toEqual({ platforms: [], isDefault: false });
  });

  it('a viewer sees the list without the form, and their POST is refused', async () => {
    const before = await readOverApi();

    const page = await viewer.get(`/workspaces/${tenant.workspaceId}`);
    const forged = await viewer.post(`/workspaces/${tenant.workspaceId}/metrics-collection`, {
      platforms: ['twitter'],
    });

    expect(page.html).toContain('Collected:');
    expect(page.html).not.toContain('metrics-collection"');
    expect(forged.status).toBe(403);
    expect(await readOverApi()).toEqual(before);
  });
});
