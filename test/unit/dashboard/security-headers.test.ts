import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { DashboardEnv } from '../../../shared/dashboard/env.js';
import { securityHeaders } from '../../../shared/dashboard/security-headers.js';
import { silentLogger } from '../../../shared/ports/logger.js';

/** The headers' middleware behind the settings the request context sets. */
function appWith(mediaStorageOrigin: string | undefined): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  app.use('*', async (c, next) => {
    c.set('settings', {
      secureCookies: true,
      logger: silentLogger,
      ...(mediaStorageOrigin && { mediaStorageOrigin }),
    });
    await next();
  });
  app.use('*', securityHeaders);
  app.get('/', (c) => c.text('ok'));
  return app;
}

/** The CSP's directives by name. */
async function policyOf(app: Hono<DashboardEnv>): Promise<Map<string, string>> {
  const response = await app.request('/');
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(
    header.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

describe("the dashboard's Content-Security-Policy", () => {
  it("lets pages connect to the media storage's origin, and to no other", async () => {
    // Act
    const policy = await policyOf(appWith('https://media-bucket.s3.eu-west-1.amazonaws.com'));

    // Assess
    expect(policy.get('connect-src')).toBe("'self' https://media-bucket.s3.eu-west-1.amazonaws.com");
    // Scripts stay the dashboard's own files: storage is somewhere to send bytes, not code.
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('default-src')).toBe("'none'");
  });

  it('keeps connect-src to the dashboard itself where there is no storage', async () => {
    // Act
    const policy = await policyOf(appWith(undefined));

    // Assess
    expect(policy.get('connect-src')).toBe("'self'");
  });
});
