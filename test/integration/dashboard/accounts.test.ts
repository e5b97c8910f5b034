import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkedInFake, startLinkedInFake } from '../../../infra/fake-networks/linkedin/index.js';
import { startXFake, type XFake } from '../../../infra/fake-networks/x/index.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../../shared/runtime/network-config.js';
import { CONNECT_ERRORS } from '../../../shared/services/accounts/connect-errors.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { consentAt } from '../../e2e/support/consent.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

/**
 * The accounts page over real HTTP: the workspace's accounts with their health, connecting an X
 * account through the fake network's consent page and back to the dashboard, reconnecting (same
 * id), disconnecting; a viewer only looks.
 */
describe('dashboard: accounts', () => {
  let x: XFake;
  let linkedIn: LinkedInFake;
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let accountsPage: string;

  beforeAll(async () => {
    x = await startXFake();
    linkedIn = await startLinkedInFake();
    const community = linkedIn.appWith('COMMUNITY_MANAGEMENT_API');
    const env = {
      X_API_URL: x.apiUrl,
      X_AUTHORIZE_URL: x.authorizeUrl,
      X_CLIENT_ID: x.clientId,
      X_CLIENT_SECRET: x.clientSecret,
      LINKEDIN_API_URL: linkedIn.apiUrl,
      LINKEDIN_OAUTH_URL: linkedIn.oauthUrl,
      LINKEDIN_CLIENT_ID: linkedIn.clientId,
      LINKEDIN_CLIENT_SECRET: linkedIn.clientSecret,
      LINKEDIN_COMMUNITY_CLIENT_ID: community?.clientId,
      LINKEDIN_COMMUNITY_CLIENT_SECRET: community?.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
    });
    tenant = await host.admin.bootstrap({ name: 'Accounts page' });
    ({ client: admin } = await signedInAs(host, {
      role: 'workspace_admin',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
    accountsPage = `/workspaces/${tenant.workspaceId}/accounts`;
  });
  afterAll(async () => {
    await host?.stop();
    await x?.stop();
    await linkedIn?.stop();
  });

  /** The whole connect as a person makes it, from the dashboard's button to the page it returns to. */
  const connectX = async () => {
    const started = await admin.post(`${accountsPage}/connect`, { platform: 'twitter' });
    expect(started.status).toBe(303);
    const authorizeUrl = String(started.location);
    expect(authorizeUrl.startsWith(x.authorizeUrl)).toBe(true);
    const callback = await consentAt(authorizeUrl);
    const back = await fetch(callback, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const returned = new URL(String(back.headers.get('location')));
    expect(`${returned.origin}${returned.pathname}`).toBe(`${host.baseUrl}/dashboard${accountsPage}`);
    return { returned, accountId: String(returned.searchParams.get('accountId')) };
  };

  it("lists the workspace's sandbox accounts with their health and today's quota use", async () => {
    // Act
    const answer = await admin.get(accountsPage);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('<h1>Accounts</h1>');
    for (const accountId of Object.values(tenant.accounts)) expect(answer.html).toContain(accountId);
    expect(answer.html).toContain('@sandbox_short');
    expect(answer.html).toContain('badge good">connected');
    expect(answer.html).toContain("Today's quota use");
    expect(answer.html).toMatch(/0 of \d+ posts/);
    expect(answer.html).toMatch(/0 of \d+ quota units/);
    expect(answer.html).toContain('<label for="field-platform">Network</label>');
    expect(answer.html).toContain('Connect account');
  });

  it('connects an X account through the network and comes back to the page with a notice', async () => {
    // Act
    const { returned, accountId } = await connectX();
    const page = await admin.get(`${returned.pathname.replace('/dashboard', '')}${returned.search}`);

    // Assess
    expect(accountId).toMatch(/^acc_/);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<p class="notice" role="status">Account connected.</p>');
    expect(page.html).toContain(accountId);
    expect(page.html).toContain('aria-label="Reconnect @fake_x_user"');
  });

  it('reconnects the same network user under the same account id', async () => {
    // Prepare
    const first = await connectX();

    // Act
    const again = await connectX();

    // Assess
    expect(again.accountId).toBe(first.accountId);
  });

  it("never lets an API caller set the dashboard's trusted return address", async () => {
    // Act
    const answer = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/connect`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'twitter', trustedRedirectUri: 'https://evil.example/steal' }),
    });

    // Assess
    expect(answer.status).toBe(400);
    expect(JSON.stringify(await answer.json())).toContain('trustedRedirectUri');
  });

  it('says what went wrong from the fixed texts only, and never claims an account of elsewhere', async () => {
    // Act
    const declined = await admin.get(`${accountsPage}?error=access_denied&error_description=evil`);
    const unknown = await admin.get(`${accountsPage}?error=%3Cscript%3Ezzqx%3C%2Fscript%3E`);
    const elsewhere = await admin.get(`${accountsPage}?accountId=acc_01ARZ3NDEKTSV4RRFFQ69G5FAV`);

    // Assess
    expect(declined.html).toContain(`<p class="alert" role="alert">${CONNECT_ERRORS.access_denied}</p>`);
    expect(declined.html).not.toContain('evil');
    expect(unknown.html).toContain('The account was not connected. Start connecting again.');
    expect(unknown.html).not.toContain('zzqx');
    expect(elsewhere.html).not.toContain('Account connected.');
  });

  it('connects a LinkedIn account through the Community Management app (the LinkedIn Pages choice), and its Reconnect keeps that app', async () => {
    // Prepare
    const form = await admin.get(accountsPage);
    expect(form.html).toContain(
      '<option value="linkedin:community">LinkedIn Pages (Community Management app)</option>',
    );

    // Act
    const started = await admin.post(`${accountsPage}/connect`, { platform: 'linkedin:community' });
    const authorizeUrl = new URL(String(started.location));
    const back = await fetch(await consentAt(authorizeUrl.toString()), { redirect: 'manual' });

    // Assess
    expect(started.status).toBe(303);
    expect(authorizeUrl.searchParams.get('client_id')).toBe(
      linkedIn.appWith('COMMUNITY_MANAGEMENT_API')?.clientId,
    );
    expect(back.status).toBe(302);
    const page = await admin.get(accountsPage);
    expect(page.html).toContain('<input type="hidden" name="platform" value="linkedin:community">');
  });

  it('refuses a network it does not know with the reason, and no redirect', async () => {
    // Act
    const answer = await admin.post(`${accountsPage}/connect`, { platform: 'myspace' });

    // Assess
    expect(answer.status).toBe(422);
    expect(answer.location).toBeUndefined();
    expect(answer.html).toContain('role="alert"');
  });

  it('disconnects an account, with a notice', async () => {
    // Prepare
    const accountId = tenant.accounts.linkedin;

    // Act
    const answer = await admin.post(`${accountsPage}/${accountId}/disconnect`);
    const page = await admin.get(String(answer.location));

    // Assess
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/dashboard${accountsPage}?done=disconnected`);
    expect(page.html).toContain('Account disconnected.');
    const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
      apiKey: tenant.apiKey,
    });
    expect(((await read.json()) as { status: string }).status).toBe('disconnected');
  });

  it('answers 404 when disconnecting an account of another workspace', async () => {
    // Prepare
    const other = await host.admin.bootstrap({ name: 'Elsewhere' });

    // Act
    const answer = await admin.post(`${accountsPage}/${other.accounts.twitter}/disconnect`);

    // Assess
    expect(answer.status).toBe(404);
    const read = await host.call(`/v1/workspaces/${other.workspaceId}/accounts/${other.accounts.twitter}`, {
      apiKey: other.apiKey,
    });
    expect(((await read.json()) as { status: string }).status).toBe('connected');
  });

  it('shows a viewer the accounts without actions, and refuses their connect and disconnect', async () => {
    // Prepare
    const { client: viewer } = await signedInAs(host, {
      role: 'viewer',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    });

    // Act
    const page = await viewer.get(accountsPage);
    const connect = await viewer.post(`${accountsPage}/connect`, { platform: 'twitter' });
    const disconnect = await viewer.post(`${accountsPage}/${tenant.accounts.youtube}/disconnect`);

    // Assess
    expect(page.status).toBe(200);
    expect(page.html).toContain(tenant.accounts.youtube);
    expect(page.html).not.toContain('Connect account');
    expect(page.html).not.toContain('>Disconnect</button>');
    expect(connect.status).toBe(403);
    expect(connect.location).toBeUndefined();
    expect(disconnect.status).toBe(403);
  });
});
