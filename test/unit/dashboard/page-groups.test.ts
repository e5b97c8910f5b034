import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_BASE, type DashboardEnv } from '../../../shared/dashboard/env.js';
import { PAGE_GROUPS } from '../../../shared/dashboard/page-groups.js';

/** A concrete path for a route's pattern: each parameter given a value of its own shape. */
function concrete(pattern: string): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    name === 'workspaceId' ? 'wks_01J00000000000000000000000' : `${name}-1`,
  );
}

/** Which group the dashboard's routing sends a request to: the app's `registerOnDemand`, by index. */
function groupRouter(): Hono {
  const router = new Hono().basePath(DASHBOARD_BASE);
  PAGE_GROUPS.forEach((group, index) => {
    for (const path of group.paths) router.all(path, (c) => c.text(String(index)));
  });
  return router;
}

describe('the groups of pages loaded on demand (shared/dashboard/page-groups.ts)', () => {
  it('sends every route of each group to that group, so no page is left unreachable or taken by another', async () => {
    // Prepare
    const router = groupRouter();
    const routes = await Promise.all(
      PAGE_GROUPS.map(async (group, index) => {
        const register = await group.load();
        const app = new Hono<DashboardEnv>().basePath(DASHBOARD_BASE);
        register(app);
        return app.routes.map((route) => ({ index, method: route.method, path: route.path }));
      }),
    );

    // Act
    const misrouted: string[] = [];
    for (const { index, method, path } of routes.flat()) {
      const answer = await router.request(concrete(path), { method });
      const reached = answer.status === 200 ? await answer.text() : 'none';
      if (reached !== String(index)) misrouted.push(`${method} ${path}: group ${reached}, not ${index}`);
    }

    // Assess
    expect(routes.flat().length).toBeGreaterThan(30);
    expect(misrouted).toEqual([]);
  });
});
