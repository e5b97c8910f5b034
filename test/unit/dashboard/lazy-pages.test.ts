import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_BASE, type DashboardEnv } from '../../../shared/dashboard/env.js';
import { type PageGroup, registerOnDemand } from '../../../shared/dashboard/lazy-pages.js';
import { silentLogger } from '../../../shared/ports/logger.js';

/** A group whose module is counted each time it is imported, with a page that shows what it was given. */
function countedGroup() {
  const counted = { loads: 0 };
  const group: PageGroup = {
    paths: ['/things/*'],
    load: async () => {
      counted.loads += 1;
      return (app) => {
        app.post('/things/:thingId', async (c) => {
          const form = await c.req.parseBody();
          return c.text(`${c.var.requestId} ${c.req.param('thingId')} ${String(form.name)}`, 201);
        });
        app.get('/things/:thingId/broken', () => {
          throw new Error('the page failed');
        });
      };
    },
  };
  return { group, counted };
}

/**
 * A dashboard in small: a middleware that sets a variable, reads the form (as the CSRF check does)
 * and sets a cookie before the page, and a header after it; the group; the dashboard's own error page.
 */
function dashboardWith(group: PageGroup): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>().basePath(DASHBOARD_BASE);
  app.use('*', async (c, next) => {
    c.set('requestId', 'req-1');
    c.set('logger', silentLogger);
    if (c.req.method === 'POST') await c.req.parseBody();
    setCookie(c, 'before', 'yes');
    await next();
    c.header('X-After', 'yes');
  });
  registerOnDemand(app, group);
  app.onError((error, c) => c.text(`dashboard error: ${error.message}`, 500));
  return app;
}

const form = (name: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ name }).toString(),
});

describe('a group of pages loaded on its first request (registerOnDemand)', () => {
  it("answers with the dashboard's variables, the path's parameters and the form its middleware already read", async () => {
    // Prepare
    const { group } = countedGroup();
    const app = dashboardWith(group);

    // Act
    const response = await app.request('/dashboard/things/t-1', form('lamp'));

    // Assess
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('req-1 t-1 lamp');
  });

  it('keeps the cookie the middleware set before the page and the header it adds after', async () => {
    // Prepare
    const { group } = countedGroup();
    const app = dashboardWith(group);

    // Act
    const response = await app.request('/dashboard/things/t-1', form('lamp'));

    // Assess
    expect(response.headers.get('set-cookie')).toContain('before=yes');
    expect(response.headers.get('x-after')).toBe('yes');
  });

  it('imports the group once, on its first request, not when the app is made', async () => {
    // Prepare
    const { group, counted } = countedGroup();
    const app = dashboardWith(group);
    const beforeAnyRequest = counted.loads;

    // Act
    await app.request('/dashboard/things/t-1', form('a'));
    await app.request('/dashboard/things/t-2', form('b'));

    // Assess
    expect(beforeAnyRequest).toBe(0);
    expect(counted.loads).toBe(1);
  });

  it("hands a page's error to the dashboard's error page, and answers a path it has no route for with the 404 page", async () => {
    // Prepare
    const { group } = countedGroup();
    const app = dashboardWith(group);

    // Act
    const broken = await app.request('/dashboard/things/t-1/broken');
    const unknown = await app.request('/dashboard/things/t-1/unknown');

    // Assess
    expect(broken.status).toBe(500);
    expect(await broken.text()).toBe('dashboard error: the page failed');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Not found');
  });

  it('imports a group again after an import failed', async () => {
    // Prepare
    const { group, counted } = countedGroup();
    let failures = 1;
    const app = dashboardWith({
      ...group,
      load: async () => {
        if (failures-- > 0) throw new Error('chunk missing');
        return group.load();
      },
    });

    // Act
    const failed = await app.request('/dashboard/things/t-1', form('a'));
    const next = await app.request('/dashboard/things/t-1', form('a'));

    // Assess
    expect(failed.status).toBe(500);
    expect(next.status).toBe(201);
    expect(counted.loads).toBe(1);
  });
});
