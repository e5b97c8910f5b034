import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_HANDLES } from '../../../shared/networks/definitions.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { postsClient, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

const AGENT_PAGE = /^\/dashboard\/workspaces\/wks_[0-9A-Z]{26}\/agents\/(agt_[0-9A-Z]{26})\?done=created$/;

/** The `<input>` of one checkbox by its value, as the page renders it. */
const checkboxOf = (html: string, name: string, value: string) =>
  new RegExp(`<input type="checkbox" id="[^"]+" name="${name}" value="${value}"( checked)?>`).exec(html);

/**
 * What a person meets first, over real HTTP against the local host: forms that start from least
 * privilege and a sensible choice, hints that are true of this host, an icon, handles instead of
 * ids, and empty pages that say what to do next.
 */
describe('dashboard: first steps', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let viewer: DashboardClient;
  let base: string;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'First steps' });
    base = `/workspaces/${tenant.workspaceId}`;
    const inWorkspace = { tenantId: tenant.tenantId, workspaceIds: [tenant.workspaceId] };
    ({ client: admin } = await signedInAs(host, { ...inWorkspace, role: 'workspace_admin' }));
    ({ client: viewer } = await signedInAs(host, { ...inWorkspace, role: 'viewer' }));
  });
  afterAll(() => host?.stop());

  it("starts a new agent's form with no permission that changes anything ticked", async () => {
    // Act
    const form = await admin.get(`${base}/agents`);

    // Assess
    expect(form.status).toBe(200);
    for (const permission of [
      'posts:write',
      'media:write',
      'webhooks:manage',
      'accounts:connect',
      'approvals:decide',
    ]) {
      const box = checkboxOf(form.html, 'permissions', permission);
      expect(box, permission).not.toBeNull();
      expect(box?.[1], permission).toBeUndefined();
    }
    expect(checkboxOf(form.html, 'permissions', 'posts:read')?.[1]).toBe(' checked');
  });

  it('makes the agent with exactly the permissions ticked', async () => {
    // Act
    const created = await admin.post(`${base}/agents`, {
      name: 'Narrow',
      permissions: ['posts:read', 'media:write'],
    });

    // Assess
    expect(created.status).toBe(303);
    const agentId = String(AGENT_PAGE.exec(String(created.location))?.[1]);
    const agent = await host.deps.tenancy.getAgent(tenant.tenantId, agentId);
    expect(agent?.permissions).toEqual(['posts:read', 'media:write']);
  });

  it("ticks the events someone acts on in a new webhook's form, and says loopback http is accepted on the local host", async () => {
    // Act
    const form = await admin.get(`${base}/webhooks`);

    // Assess
    expect(form.status).toBe(200);
    const ticked = ['post.published', 'post.failed', 'account.disconnected'];
    for (const event of [
      'post.queued',
      'post.scheduled',
      'post.published',
      'post.failed',
      'account.disconnected',
    ]) {
      expect(checkboxOf(form.html, 'events', event)?.[1], event).toBe(
        ticked.includes(event) ? ' checked' : undefined,
      );
    }
    expect(form.html).toContain('on this local host, http to a loopback address');
  });

  it('asks for at least one event in words, before any schema message', async () => {
    // Act
    const answer = await admin.post(`${base}/webhooks`, { url: 'http://127.0.0.1:9/hooks' });

    // Assess
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('id="field-events-error">Choose at least one event.</p>');
  });

  it('serves its icon and every page links it', async () => {
    // Act
    const icon = await fetch(`${host.baseUrl}/dashboard/favicon.ico`);
    const linked = await fetch(`${host.baseUrl}/dashboard/assets/favicon.svg`);
    const signIn = await fetch(`${host.baseUrl}/dashboard/sign-in`);

    // Assess
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
    expect(linked.status).toBe(200);
    expect(await signIn.text()).toContain(
      '<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">',
    );
  });

  it("shows each post's account by its handle, not its id", async () => {
    // Arrange
    const created = await postsClient(host, tenant).create(
      tweet(tenant, { status: 'draft', content: 'by handle' }),
    );
    expect(created.status).toBe(201);

    // Act
    const list = await viewer.get(`${base}/posts`);

    // Assess
    expect(list.status).toBe(200);
    expect(list.html).toContain(`<td data-label="Account">${SANDBOX_HANDLES.twitter}</td>`);
    expect(list.html).not.toContain(`<code>${tenant.accounts.twitter}</code>`);
  });

  it("says what to do next on a new workspace's overview, and stops once it has accounts and posts", async () => {
    // Arrange
    const empty = await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Empty' });
    const { client: owner } = await signedInAs(host, { tenantId: tenant.tenantId, role: 'owner' });

    // Act
    const fresh = await owner.get(`/workspaces/${empty.workspaceId}`);
    const busy = await owner.get(base);

    // Assess
    expect(fresh.status).toBe(200);
    expect(fresh.html).toContain('<h2 id="next-steps">Get started</h2>');
    expect(fresh.html).toContain(
      `href="/dashboard/workspaces/${empty.workspaceId}/accounts">Connect a social account</a>`,
    );
    expect(fresh.html).toContain(
      `href="/dashboard/workspaces/${empty.workspaceId}/agents">Create an agent and an API key</a>`,
    );
    expect(busy.html).not.toContain('Get started');
  });

  it('explains FAKE_NETWORKS=1 and the sandbox accounts when connecting is not configured on the local host', async () => {
    // Act
    const page = await admin.get(`${base}/accounts`);
    const refused = await admin.post(`${base}/accounts/connect`, { platform: 'twitter' });

    // Assess
    expect(page.html).toContain('FAKE_NETWORKS=1 npm start');
    expect(refused.status).toBe(409);
    expect(refused.html).toMatch(
      /<p class="alert" role="alert">[^<]*not configured[^<]*FAKE_NETWORKS=1 npm start[^<]*create-sandbox-account/,
    );
  });
});
