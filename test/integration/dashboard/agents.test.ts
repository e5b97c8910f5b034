import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../shared/domain/api-keys.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

const NEW_KEY = /<p class="secret" id="new-secret">(smcp_[0-9a-f]{64})<\/p>/;
const AGENT_PAGE = /^\/dashboard\/workspaces\/wks_[0-9A-Z]{26}\/agents\/(agt_[0-9A-Z]{26})\?done=created$/;
const TENANT_AGENT_PAGE = /^\/dashboard\/agents\/(agt_[0-9A-Z]{26})\?done=created$/;

/**
 * Agents and keys over real HTTP: a workspace admin creates an agent locked to their workspace and
 * a key shown once that works against the API, sees its last use, revokes it; tenant-level agents
 * are for owners and super-admins, `all` for super-admins; nobody reaches an agent from where it
 * does not belong, and a viewer changes nothing.
 */
describe('dashboard: agents and keys', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let otherWorkspaceId: string;
  let workspaceAdmin: DashboardClient;
  let viewer: DashboardClient;
  let owner: DashboardClient;
  let superAdmin: DashboardClient;
  let agentsPage: string;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Agents page' });
    otherWorkspaceId = (await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Other' }))
      .workspaceId;
    const inTenant = { tenantId: tenant.tenantId };
    const mine = { workspaceIds: [tenant.workspaceId] };
    ({ client: workspaceAdmin } = await signedInAs(host, { ...inTenant, ...mine, role: 'workspace_admin' }));
    ({ client: viewer } = await signedInAs(host, { ...inTenant, ...mine, role: 'viewer' }));
    ({ client: owner } = await signedInAs(host, { ...inTenant, role: 'owner' }));
    ({ client: superAdmin } = await signedInAs(host, { ...inTenant, role: 'super_admin' }));
    agentsPage = `/workspaces/${tenant.workspaceId}/agents`;
  });
  afterAll(() => host?.stop());

  const agentNamed = async (name: string) =>
    (await host.deps.tenancy.listAgents(tenant.tenantId)).find((agent) => agent.name === name);

  /** Creates an agent in a workspace through the page; returns its id. */
  const createLocked = async (client: DashboardClient, workspaceId: string, name: string) => {
    const created = await client.post(`/workspaces/${workspaceId}/agents`, {
      name,
      permissions: ['posts:read', 'posts:write'],
    });
    expect(created.status).toBe(303);
    return String(AGENT_PAGE.exec(String(created.location))?.[1]);
  };

  it('creates an agent locked to the workspace and a key shown once that works against the API', async () => {
    // Act
    const agentId = await createLocked(workspaceAdmin, tenant.workspaceId, 'Scheduler');
    const issued = await workspaceAdmin.post(`${agentsPage}/${agentId}/keys`);
    const plaintext = String(NEW_KEY.exec(issued.html)?.[1]);
    const later = await workspaceAdmin.get(`${agentsPage}/${agentId}`);
    const api = await host.call('/v1/workspaces', { apiKey: plaintext });

    // Assess
    expect(issued.status).toBe(200);
    expect(issued.html).toContain('<h1>Agent Scheduler</h1>');
    expect(issued.html).toContain('data-copy="new-secret"');
    expect(issued.html).toContain('Copy it now: it will not be shown again.');
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(later.status).toBe(200);
    expect(later.html).not.toContain(plaintext);
    expect(later.html).not.toContain(hashApiKey(plaintext));
    expect(later.html).toContain(`…${plaintext.slice(-4)}`);
    expect(later.html).toContain('Locked to Agents page workspace');
    expect(api.status).toBe(200);
    const agent = await host.deps.tenancy.getAgent(tenant.tenantId, agentId);
    expect(agent).toMatchObject({
      name: 'Scheduler',
      permissions: ['posts:read', 'posts:write'],
      lockedWorkspaceId: tenant.workspaceId,
      scope: { kind: 'selected', workspaceIds: [tenant.workspaceId] },
    });
  });

  it("shows a key's last use after it was used, and a revoked key answers 401", async () => {
    // Prepare
    const agentId = await createLocked(workspaceAdmin, tenant.workspaceId, 'Reporter');
    const issued = await workspaceAdmin.post(`${agentsPage}/${agentId}/keys`);
    const plaintext = String(NEW_KEY.exec(issued.html)?.[1]);
    const keyId = String(/<code>(key_[0-9A-Z]{26})<\/code>/.exec(issued.html)?.[1]);
    const unused = await workspaceAdmin.get(`${agentsPage}/${agentId}`);

    // Act
    expect((await host.call('/v1/workspaces', { apiKey: plaintext })).status).toBe(200);
    const used = await workspaceAdmin.get(`${agentsPage}/${agentId}`);
    const revoked = await workspaceAdmin.post(`${agentsPage}/${agentId}/keys/${keyId}/revoke`);
    const afterRevoke = await workspaceAdmin.get(String(revoked.location));
    const api = await host.call('/v1/workspaces', { apiKey: plaintext });

    // Assess
    const lastUsedCell = (html: string) =>
      /<td>(Never|<time[^>]*>[^<]*<\/time>)<\/td><td>(No|<time)/.exec(html)?.[1];
    expect(lastUsedCell(unused.html)).toBe('Never');
    expect(lastUsedCell(used.html)).toMatch(/^<time datetime="\d{4}-\d\d-\d\dT/);
    expect(revoked.status).toBe(303);
    expect(afterRevoke.html).toContain('API key revoked.');
    expect(afterRevoke.html).not.toContain(`/keys/${keyId}/revoke`);
    expect(api.status).toBe(401);
  });

  it('saves an edit of name and permissions, and refuses no permission with 422', async () => {
    // Prepare
    const agentId = await createLocked(workspaceAdmin, tenant.workspaceId, 'Editable');

    // Act
    const saved = await workspaceAdmin.post(`${agentsPage}/${agentId}`, {
      name: 'Edited',
      permissions: ['accounts:read'],
    });
    const refused = await workspaceAdmin.post(`${agentsPage}/${agentId}`, { name: 'Nothing' });

    // Assess
    expect(saved.status).toBe(303);
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('Tick at least one permission.');
    expect(refused.html).toContain('value="Nothing"');
    expect(await host.deps.tenancy.getAgent(tenant.tenantId, agentId)).toMatchObject({
      name: 'Edited',
      permissions: ['accounts:read'],
    });
  });

  it('deletes an agent, after which its key answers 401', async () => {
    // Prepare
    const agentId = await createLocked(workspaceAdmin, tenant.workspaceId, 'Doomed');
    const plaintext = String(
      NEW_KEY.exec((await workspaceAdmin.post(`${agentsPage}/${agentId}/keys`)).html)?.[1],
    );

    // Act
    const deleted = await workspaceAdmin.post(`${agentsPage}/${agentId}/delete`);
    const page = await workspaceAdmin.get(`${agentsPage}/${agentId}`);

    // Assess
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe(`/dashboard${agentsPage}?done=deleted`);
    expect(page.status).toBe(404);
    expect((await host.call('/v1/workspaces', { apiKey: plaintext })).status).toBe(401);
  });

  it('keeps a workspace admin to agents locked to their workspace, also against forged requests', async () => {
    // Prepare
    const theirs = await createLocked(owner, otherWorkspaceId, 'Theirs');
    const tenantLevel = await owner.post('/agents', {
      name: 'Tenant wide',
      scope: 'selected',
      workspaceIds: [tenant.workspaceId],
      permissions: ['posts:read'],
    });
    const tenantAgentId = String(TENANT_AGENT_PAGE.exec(String(tenantLevel.location))?.[1]);

    // Act
    const answers = {
      listOther: await workspaceAdmin.get(`/workspaces/${otherWorkspaceId}/agents`),
      viaOwnWorkspace: await workspaceAdmin.get(`${agentsPage}/${theirs}`),
      tenantAgentViaWorkspace: await workspaceAdmin.get(`${agentsPage}/${tenantAgentId}`),
      saveViaOwnWorkspace: await workspaceAdmin.post(`${agentsPage}/${theirs}`, {
        name: 'Hijacked',
        permissions: ['posts:read'],
      }),
      keyViaOwnWorkspace: await workspaceAdmin.post(`${agentsPage}/${theirs}/keys`),
      deleteViaOwnWorkspace: await workspaceAdmin.post(`${agentsPage}/${theirs}/delete`),
      createInOther: await workspaceAdmin.post(`/workspaces/${otherWorkspaceId}/agents`, {
        name: 'Sneaky',
        permissions: ['posts:read'],
      }),
      tenantList: await workspaceAdmin.get('/agents'),
      tenantCreate: await workspaceAdmin.post('/agents', {
        name: 'Sneaky',
        scope: 'all',
        permissions: ['posts:read'],
      }),
      tenantAgent: await workspaceAdmin.get(`/agents/${tenantAgentId}`),
    };

    // Assess
    expect(
      Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status])),
    ).toEqual({
      listOther: 404,
      viaOwnWorkspace: 404,
      tenantAgentViaWorkspace: 404,
      saveViaOwnWorkspace: 404,
      keyViaOwnWorkspace: 404,
      deleteViaOwnWorkspace: 404,
      createInOther: 404,
      tenantList: 403,
      tenantCreate: 403,
      tenantAgent: 403,
    });
    expect(await host.deps.tenancy.getAgent(tenant.tenantId, theirs)).toMatchObject({ name: 'Theirs' });
    expect(await host.deps.tenancy.listApiKeys(tenant.tenantId, theirs)).toEqual([]);
    expect(await agentNamed('Sneaky')).toBeUndefined();
    expect(await agentNamed('Hijacked')).toBeUndefined();
  });

  it('gives a workspace admin a locked agent whatever scope a forged form names', async () => {
    // Act
    const created = await workspaceAdmin.post(agentsPage, {
      name: 'Forged scope',
      scope: 'all',
      permissions: ['posts:read'],
    });

    // Assess
    expect(created.status).toBe(303);
    expect((await agentNamed('Forged scope'))?.scope).toEqual({
      kind: 'selected',
      workspaceIds: [tenant.workspaceId],
    });
  });

  it('lets only a super-admin give a tenant-level agent every workspace', async () => {
    // Act
    const byOwner = await owner.post('/agents', {
      name: 'Everything by owner',
      scope: 'all',
      permissions: ['posts:read'],
    });
    const bySuperAdmin = await superAdmin.post('/agents', {
      name: 'Everything',
      scope: 'all',
      permissions: ['posts:read'],
    });
    const ownerForm = await owner.get('/agents');
    const superAdminForm = await superAdmin.get('/agents');

    // Assess
    expect(byOwner.status).toBe(403);
    expect(byOwner.html).toContain('Your role does not allow this.');
    expect(await agentNamed('Everything by owner')).toBeUndefined();
    expect(bySuperAdmin.status).toBe(303);
    expect((await agentNamed('Everything'))?.scope).toEqual({ kind: 'all' });
    expect(ownerForm.html).not.toContain('<option value="all"');
    expect(superAdminForm.html).toContain('<option value="all"');
  });

  it("edits a tenant-level agent's scope, and reaches it only under /agents", async () => {
    // Prepare
    const created = await owner.post('/agents', {
      name: 'Two places',
      scope: 'selected',
      workspaceIds: [tenant.workspaceId, otherWorkspaceId],
      permissions: ['posts:read'],
    });
    const agentId = String(TENANT_AGENT_PAGE.exec(String(created.location))?.[1]);

    // Act
    const saved = await owner.post(`/agents/${agentId}`, {
      name: 'One place',
      scope: 'selected',
      workspaceIds: [otherWorkspaceId],
      permissions: ['posts:read', 'accounts:read'],
    });
    const noWorkspace = await owner.post(`/agents/${agentId}`, {
      name: 'Nowhere',
      scope: 'selected',
      permissions: ['posts:read'],
    });
    const viaWorkspace = await owner.get(`${agentsPage}/${agentId}`);
    const page = await owner.get(`/agents/${agentId}`);

    // Assess
    expect(created.status).toBe(303);
    expect(saved.status).toBe(303);
    expect(noWorkspace.status).toBe(422);
    expect(viaWorkspace.status).toBe(404);
    expect(page.html).toContain('<h1>Agent One place</h1>');
    expect(await host.deps.tenancy.getAgent(tenant.tenantId, agentId)).toMatchObject({
      name: 'One place',
      scope: { kind: 'selected', workspaceIds: [otherWorkspaceId] },
      permissions: ['posts:read', 'accounts:read'],
    });
  });

  it("shows a viewer the workspace's agents without forms and refuses every change", async () => {
    // Prepare
    const agentId = await createLocked(workspaceAdmin, tenant.workspaceId, 'Watched');

    // Act
    const list = await viewer.get(agentsPage);
    const page = await viewer.get(`${agentsPage}/${agentId}`);
    const posts = [
      await viewer.post(agentsPage, { name: 'By viewer', permissions: ['posts:read'] }),
      await viewer.post(`${agentsPage}/${agentId}`, {
        name: 'Renamed by viewer',
        permissions: ['posts:read'],
      }),
      await viewer.post(`${agentsPage}/${agentId}/keys`),
      await viewer.post(`${agentsPage}/${agentId}/delete`),
    ];

    // Assess
    expect(list.status).toBe(200);
    expect(list.html).toContain('Watched');
    expect(list.html).not.toContain('Create agent');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('Create API key');
    expect(posts.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
    expect(await agentNamed('By viewer')).toBeUndefined();
    expect(await host.deps.tenancy.getAgent(tenant.tenantId, agentId)).toMatchObject({ name: 'Watched' });
    expect(await host.deps.tenancy.listApiKeys(tenant.tenantId, agentId)).toEqual([]);
  });
});
