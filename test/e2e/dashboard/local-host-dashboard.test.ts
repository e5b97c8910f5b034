import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

/** The local host serves the dashboard as API Gateway would: cookies both ways, the same headers. */
describe('the local host serves /dashboard', () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.stop();
  });

  it('answers the sign-in page with the security headers and a pre-session CSRF cookie', async () => {
    const answer = await host.call('/dashboard/sign-in');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(answer.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    const cookies = answer.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^sp_csrf=[^;]+; Max-Age=3600; Path=\/dashboard; HttpOnly; SameSite=Lax$/);
  });

  it('sends a request without a session to sign in, remembering where it was going', async () => {
    const answer = await host.call('/dashboard/workspaces?x=1', { redirect: 'manual' });

    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(
      `/dashboard/sign-in?next=${encodeURIComponent('/dashboard/workspaces?x=1')}`,
    );
  });

  it('carries the session cookie back in: a signed-in user gets their pages', async () => {
    const { client, email } = await signedInAs(host, { role: 'owner' });

    const answer = await client.get('/workspaces');

    expect(answer.status).toBe(200);
    expect(answer.html).toContain('<h1>Workspaces</h1>');
    expect(answer.html).toContain(email);
  });

  it('leaves the API and MCP as they were: no cookies, JSON 404 outside /dashboard', async () => {
    const answer = await host.call('/dashboardx');

    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.getSetCookie()).toEqual([]);
  });
});
