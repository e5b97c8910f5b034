import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../shared/domain/tenancy.js';
import { launchBrowser, type Person, type TestBrowser } from './support/browser.js';
import { type DashboardHost, type NewTenant, startDashboardHost } from './support/dashboard-host.js';
import { csrfTokenOf, expectHeading, setPasswordThrough, unlabelledControls } from './support/person.js';
import { screenshot } from './support/screenshots.js';

const OWNER_PASSWORD = 'the owner keeps this one';
const ADMIN_PASSWORD = 'the admin of alpha only';

/**
 * A workspace admin sees their own workspace and nothing of another: its pages answer 404 (as
 * if it did not exist), and forms posted to it from the admin's signed-in page, with the admin's
 * cookies, a valid CSRF token and the right Origin, are refused and change nothing.
 */
describe("a workspace admin cannot reach another workspace's pages or forms", () => {
  let dash: DashboardHost;
  let browser: TestBrowser;
  let tenant: NewTenant;
  let alpha: Workspace;
  let bravo: Workspace;
  let admin: Person;
  const people: Person[] = [];

  /** What a forged request could have changed in Bravo, read from the stores. */
  const bravoAsStored = async () => {
    const { tenancy, webhooks } = dash.host.deps;
    const [workspace, agents, accounts, hooks] = await Promise.all([
      tenancy.getWorkspace(tenant.tenantId, bravo.workspaceId),
      tenancy.listAgents(tenant.tenantId),
      tenancy.listAccounts(tenant.tenantId, bravo.workspaceId, { limit: 100 }),
      webhooks.listWebhooks(tenant.tenantId, bravo.workspaceId, { limit: 100 }),
    ]);
    return { workspace, agents, accounts: accounts.items, hooks: hooks.items };
  };

  beforeAll(async () => {
    [dash, browser] = await Promise.all([startDashboardHost(), launchBrowser()]);
    tenant = await dash.bootstrapTenant('Two teams', 'owner@two-teams.example');
    alpha = await dash.host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Alpha' });
    bravo = await dash.host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Bravo' });

    // The owner invites Alpha's admin on the Users page; the invitation's link is shown once.
    const owner = await browser.newPerson();
    people.push(owner);
    await setPasswordThrough(owner.page, tenant.ownerLink, OWNER_PASSWORD);
    await owner.page.goto(dash.url('/users'));
    await expectHeading(owner.page, 'Users');
    await owner.page.getByLabel('Email').fill('admin@alpha.example');
    await owner.page.getByLabel('Role').selectOption('workspace_admin');
    await owner.page.getByRole('group', { name: 'Workspaces' }).getByLabel('Alpha').check();
    await owner.page.getByRole('button', { name: 'Invite' }).click();
    const link = (await owner.page.locator('#new-secret').innerText()).trim();
    expect(link).toMatch(/\/dashboard\/welcome\/\S+$/);
    expect(await unlabelledControls(owner.page)).toEqual([]);
    await screenshot(owner.page, 'users-invite', [owner.page.locator('#new-secret')]);

    admin = await browser.newPerson();
    people.push(admin);
    await setPasswordThrough(admin.page, link, ADMIN_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dash?.stop();
  });
  afterEach(() => {
    for (const person of people) expect(person.watch.cspViolations).toEqual([]);
  });

  it('lists only Alpha, and every page of Bravo answers 404 without telling it exists', async () => {
    const { page } = admin;
    await page.goto(dash.url('/workspaces'));
    await expect(page.getByRole('link', { name: 'Alpha' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Bravo' }).count()).resolves.toBe(0);
    // A workspace admin creates no workspaces.
    await expect(page.getByRole('button', { name: 'Create workspace' }).count()).resolves.toBe(0);

    for (const rest of ['', '/accounts', '/posts', '/approvals', '/agents', '/policies', '/webhooks']) {
      const own = await page.goto(dash.url(`/workspaces/${alpha.workspaceId}${rest}`));
      expect(own?.status(), `Alpha${rest}`).toBe(200);
      const other = await page.goto(dash.url(`/workspaces/${bravo.workspaceId}${rest}`));
      expect(other?.status(), `Bravo${rest}`).toBe(404);
      await expectHeading(page, 'Not found');
      expect(await page.content()).not.toContain('Bravo');
    }
    // The tenant's own pages are for owners and super-admins.
    for (const path of ['/users', '/agents']) {
      const answer = await page.goto(dash.url(path));
      expect(answer?.status(), path).toBe(403);
    }
  }, 60_000);

  it("refuses forged posts to Bravo's forms made with the admin's session and token, and nothing changes", async () => {
    const { page } = admin;
    await page.goto(dash.url(`/workspaces/${alpha.workspaceId}`));
    const csrf = await csrfTokenOf(page);
    const origin = new URL(dash.host.baseUrl).origin;
    const forge = (path: string, form: Record<string, string>) =>
      page.request.post(dash.url(path), {
        form: { _csrf: csrf, ...form },
        headers: { Origin: origin },
        maxRedirects: 0,
      });

    // The same kind of request to Alpha goes through: the session, token and Origin are good.
    const renamed = await forge(`/workspaces/${alpha.workspaceId}/rename`, { name: 'Alpha team' });
    expect(renamed.status()).toBe(303);
    expect((await dash.host.deps.tenancy.getWorkspace(tenant.tenantId, alpha.workspaceId))?.name).toBe(
      'Alpha team',
    );

    const before = await bravoAsStored();
    const bravoBase = `/workspaces/${bravo.workspaceId}`;
    const forged: Array<[string, Record<string, string>]> = [
      [`${bravoBase}/rename`, { name: 'Taken over' }],
      [`${bravoBase}/policies`, { requireApproval: 'on', blockedTerms: 'sale' }],
      [`${bravoBase}/agents`, { name: 'Intruder', permissions: 'posts:write' }],
      [`${bravoBase}/webhooks`, { url: 'http://127.0.0.1:9/steal', events: 'post.published' }],
      [`${bravoBase}/accounts/connect`, { platform: 'linkedin' }],
    ];
    // 404, as for a workspace that does not exist: the guard refuses before any form is read.
    for (const [path, form] of forged) {
      const answer = await forge(path, form);
      expect(answer.status(), path).toBe(404);
      expect(await answer.text(), path).toContain('<h1>Not found</h1>');
    }
    // Nor the tenant-level forms: a workspace admin makes no tenant agents and invites no one.
    for (const [path, form] of [
      ['/agents', { name: 'Tenant intruder', scope: 'all', permissions: 'posts:write' }],
      ['/users', { email: 'friend@elsewhere.example', role: 'super_admin' }],
    ] as const) {
      const answer = await forge(path, form);
      expect(answer.status(), path).toBe(403);
      // Refused for the role, not for a bad token: the token was good (Alpha's rename went through).
      expect(await answer.text(), path).toContain('<h1>Not allowed</h1>');
    }

    expect(await bravoAsStored()).toEqual(before);
    const agents = await dash.host.deps.tenancy.listAgents(tenant.tenantId);
    expect(agents.map((agent) => agent.name)).not.toContain('Tenant intruder');
    await expect(dash.host.users.findUserByEmail('friend@elsewhere.example')).resolves.toBeUndefined();
  }, 60_000);
});
