import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TABLES } from '../../../shared/adapters/dynamodb/tables.js';
import type { ApiEvent, ApiResult } from '../../../shared/http/request-state.js';

type Handler = (event: ApiEvent) => Promise<ApiResult>;

/** An HTTP API event (payload format 2.0) as API Gateway sends it for `ANY /dashboard/{proxy+}`. */
function dashboardEvent(path: string, cookies?: string[]): ApiEvent {
  const now = new Date();
  return {
    version: '2.0',
    routeKey: 'ANY /dashboard/{proxy+}',
    rawPath: path,
    rawQueryString: '',
    ...(cookies && { cookies }),
    headers: {
      host: 'dashboard.example.com',
      accept: 'text/html',
      'user-agent': 'test',
      'x-forwarded-proto': 'https',
    },
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'dashboard.example.com',
      domainPrefix: 'dashboard',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: 'test-request',
      routeKey: 'ANY /dashboard/{proxy+}',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
}

/**
 * functions/dashboard.ts as Lambda loads it: its config from the environment the stack gives it.
 * No request here carries a session cookie, so nothing reaches DynamoDB (a page behind a session
 * is covered against DynamoDB Local by test/integration/dashboard/).
 */
describe('functions/dashboard.ts: the Lambda entry of the dashboard', () => {
  let handler: Handler;

  beforeAll(async () => {
    for (const table of TABLES) vi.stubEnv(table.envVar, `test-${table.id}`);
    vi.stubEnv('AWS_REGION', 'eu-west-1');
    vi.stubEnv('MEDIA_BUCKET', 'socialpublishing-test-media');
    vi.stubEnv('PUBLIC_BASE_URL', 'https://dashboard.example.com');
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
    ({ handler } = (await import('../../../functions/dashboard.js')) as { handler: Handler });
  });

  afterAll(() => vi.unstubAllEnvs());

  it('sends a browser without a session to sign in (303), keeping where it was going, with the CSP', async () => {
    // Act
    const result = await handler(dashboardEvent('/dashboard/workspaces'));

    // Assess
    expect(result.statusCode).toBe(303);
    expect(result.headers?.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fworkspaces');
    expect(String(result.headers?.['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(result.headers?.['x-request-id']).toEqual(expect.any(String));
  });

  it("lets pages connect to the media bucket's own origin (the composer's direct upload), from the stack's environment", async () => {
    // Act
    const result = await handler(dashboardEvent('/dashboard/sign-in'));

    // Assess
    expect(String(result.headers?.['content-security-policy'])).toContain(
      "connect-src 'self' https://socialpublishing-test-media.s3.eu-west-1.amazonaws.com;",
    );
  });

  it('gives a new browser its pre-session CSRF cookie in `cookies`: HttpOnly, SameSite=Lax, Secure over https', async () => {
    // Act
    const result = await handler(dashboardEvent('/dashboard/workspaces'));

    // Assess
    expect(result.headers?.['set-cookie']).toBeUndefined();
    expect(result.cookies).toHaveLength(1);
    const [cookie = ''] = result.cookies ?? [];
    expect(cookie).toMatch(/^sp_csrf=[A-Za-z0-9_-]{43};/);
    expect(cookie.split('; ')).toEqual(
      expect.arrayContaining(['Path=/dashboard', 'HttpOnly', 'Secure', 'SameSite=Lax']),
    );
  });

  it('answers the sign-in page to a browser with cookies: its form carries the CSRF token of `event.cookies`', async () => {
    // Act
    const result = await handler(dashboardEvent('/dashboard/sign-in', ['theme=dark', 'sp_csrf=known-token']));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['content-type']).toMatch(/^text\/html/);
    expect(result.body).toContain('<h1>Sign in</h1>');
    expect(result.body).toContain('name="_csrf" value="known-token"');
    expect(result.body).toMatch(/<input[^>]*name="password"/);
    expect(result.cookies ?? []).toEqual([]);
  });

  it('reads the cookies API Gateway passes in `event.cookies`: a browser that has its CSRF cookie is not given another', async () => {
    // Act
    const result = await handler(
      dashboardEvent('/dashboard/workspaces', ['theme=dark', 'sp_csrf=known-token']),
    );

    // Assess
    expect(result.statusCode).toBe(303);
    expect(result.cookies ?? []).toEqual([]);
  });
});
