import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardClient,
  dashboardClient,
  hostUsers,
  signedInAs,
} from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

const LINK = /<p class="secret" id="new-secret">([^<]+)<\/p>/;
const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

/** The Users page over real HTTP: who may see it, invitations and their one-time links. */
describe('dashboard: users and invitations', () => {
  let host: TestHost;
  let tenantId: string;
  let workspaceId: string;
  let owner: DashboardClient;
  let superAdmin: DashboardClient;
  let workspaceAdmin: DashboardClient;
  let viewer: DashboardClient;

  beforeAll(async () => {
    host = await startTestHost();
    tenantId = (await host.admin.createTenant({ name: 'Users tenant' })).tenantId;
    workspaceId = (await host.admin.createWorkspace({ tenantId, name: 'Main' })).workspaceId;
    const inTenant = { tenantId };
    ({ client: owner } = await signedInAs(host, { ...inTenant, role: 'owner' }));
    ({ client: superAdmin } = await signedInAs(host, { ...inTenant, role: 'super_admin' }));
    ({ client: workspaceAdmin } = await signedInAs(host, {
      ...inTenant,
      role: 'workspace_admin',
      workspaceIds: [workspaceId],
    }));
    ({ client: viewer } = await signedInAs(host, {
      ...inTenant,
      role: 'viewer',
      workspaceIds: [workspaceId],
    }));
  });
  afterAll(() => host?.stop());

  const usersNamed = async (email: string) =>
    (await hostUsers(host).store.listUsers(tenantId)).filter((user) => user.email === email);

  it('shows the owner the tenant people and a form to invite, with every role an owner may give', async () => {
    // Act
    const answer = await owner.get('/users');

    // Assess
    expect(answer.status).toBe(200);
    expect(h1(answer.html)).toBe('Users');
    expect(answer.html).toContain('<caption>People of this tenant</caption>');
    expect(answer.html).toContain('<option value="super_admin"');
    expect(answer.html).toContain('<option value="workspace_admin"');
    expect(answer.html).toContain('<option value="viewer"');
    expect(answer.html).not.toContain('<option value="owner"');
    expect(answer.html).toContain(`value="${workspaceId}"`);
    expect(answer.html).toContain('<button type="submit">Invite</button>');
    expect(answer.html).not.toContain('scrypt$');
    expect(answer.html).toContain('<span class="badge good">Active</span>');
  });

  it('invites a workspace admin: the link is shown once, works, and the list shows them invited', async () => {
    // Act
    const invited = await owner.post('/users', {
      email: 'New.Admin@Example.com',
      role: 'workspace_admin',
      workspaceIds: [workspaceId],
    });
    const url = LINK.exec(invited.html)?.[1] ?? '';
    const later = await owner.get('/users');

    // Assess
    expect(invited.status).toBe(200);
    expect(url).toMatch(new RegExp(`^${host.baseUrl}/dashboard/welcome/[A-Za-z0-9_-]{43}$`));
    expect(invited.html).toContain('Copy it now: it will not be shown again.');
    expect(invited.html).toContain('data-copy="new-secret"');
    const token = url.split('/').pop() ?? '';
    expect(later.html).not.toContain(token);
    expect(later.html).toContain('new.admin@example.com');
    const row = /<tr><th scope="row">new\.admin@example\.com<\/th>.*?<\/tr>/.exec(later.html)?.[0] ?? '';
    expect(row).toContain('<span class="badge">Invited</span>');
    expect(row).toContain('Workspace admin');
    expect(row).toContain('<td>Main</td>');
    const [user] = await usersNamed('new.admin@example.com');
    expect(user).toMatchObject({ role: 'workspace_admin', workspaceIds: [workspaceId] });
    const welcome = await dashboardClient(host).get(new URL(url).pathname);
    expect(welcome.status).toBe(200);
    expect(welcome.html).toContain('new.admin@example.com');
  });

  it('a super-admin may invite workspace admins and viewers but not another super-admin, even by a forged form', async () => {
    // Prepare
    const form = await superAdmin.get('/users');

    // Act
    const forged = await superAdmin.post('/users', { email: 'sneaky@example.com', role: 'super_admin' });
    const allowed = await superAdmin.post('/users', {
      email: 'viewer-by-super@example.com',
      role: 'viewer',
      workspaceIds: [workspaceId],
    });

    // Assess
    expect(form.status).toBe(200);
    expect(form.html).not.toContain('<option value="super_admin"');
    expect(forged.status).toBe(403);
    expect(await usersNamed('sneaky@example.com')).toEqual([]);
    expect(allowed.status).toBe(200);
    expect(LINK.test(allowed.html)).toBe(true);
  });

  it('workspace admins and viewers may neither see nor post the page', async () => {
    // Act
    const answers = await Promise.all([
      workspaceAdmin.get('/users'),
      viewer.get('/users'),
      workspaceAdmin.post('/users', {
        email: 'by-wa@example.com',
        role: 'viewer',
        workspaceIds: [workspaceId],
      }),
      viewer.post('/users', { email: 'by-viewer@example.com', role: 'viewer', workspaceIds: [workspaceId] }),
    ]);

    // Assess
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    expect(await usersNamed('by-wa@example.com')).toEqual([]);
    expect(await usersNamed('by-viewer@example.com')).toEqual([]);
  });

  it('keeps what was typed when an invitation is refused: no workspace 422, a taken email 409', async () => {
    // Prepare
    await owner.post('/users', { email: 'taken@example.com', role: 'super_admin' });

    // Act
    const noWorkspace = await owner.post('/users', { email: 'lonely@example.com', role: 'viewer' });
    const taken = await owner.post('/users', { email: 'taken@example.com', role: 'super_admin' });
    const badRole = await owner.post('/users', { email: 'odd@example.com', role: 'owner' });

    // Assess
    expect(noWorkspace.status).toBe(422);
    expect(noWorkspace.html).toContain('Choose at least one workspace.');
    expect(noWorkspace.html).toContain('value="lonely@example.com"');
    expect(LINK.test(noWorkspace.html)).toBe(false);
    expect(taken.status).toBe(409);
    expect(taken.html).toContain('exists already');
    expect(badRole.status).toBe(422);
    expect(await usersNamed('lonely@example.com')).toEqual([]);
    expect(await usersNamed('odd@example.com')).toEqual([]);
  });
});
