import { type Context, type Handler, Hono } from 'hono';
import { loadOnce } from '../runtime/load-once.js';
import { DASHBOARD_BASE, type DashboardEnv, type DashboardVariables } from './env.js';
import { notFoundPage } from './pages.js';

/**
 * A group of pages behind sign-in whose module (a route module under routes/, its views, the
 * operations it runs) is imported on the group's first request, not at cold start: esbuild makes
 * each `import()` a chunk of the dashboard's function (docs/dashboard.md, "How pages load").
 */
export interface PageGroup {
  /**
   * Every path its routes answer, as Hono patterns under /dashboard. A request goes to the first
   * group listing its path (test/unit/dashboard/page-groups.test.ts checks each route is reached).
   */
  paths: readonly string[];
  /** Imports the group's module; resolves to what registers its routes (`registerPostRoutes`). */
  load: () => Promise<(app: Hono<DashboardEnv>) => void>;
}

/**
 * What a group's app takes from the dashboard's context: every variable. A Record, so that a
 * variable added to DashboardVariables does not compile until it is listed here.
 */
const VARIABLES: Record<keyof DashboardVariables, true> = {
  settings: true,
  loadDeps: true,
  deps: true,
  requestId: true,
  logger: true,
  signedIn: true,
  csrfToken: true,
  workspace: true,
};

/** The dashboard's context of a request a group answers, by its Request: the group's app takes it over. */
const dashboardContexts = new WeakMap<Request, Context<DashboardEnv>>();

function takeOver<K extends keyof DashboardVariables>(
  c: Context<DashboardEnv>,
  from: Context<DashboardEnv>,
  key: K,
): void {
  const value = from.get(key);
  if (value !== undefined) c.set(key, value);
}

/**
 * A group's own app: it continues the dashboard's request (the middleware has run: session,
 * CSRF, workspace guard), so it starts from the dashboard's variables and the form the CSRF check
 * already read; a path it has no route for is the dashboard's 404 page; an error is thrown on to
 * the dashboard's error pages.
 */
function groupApp(register: (app: Hono<DashboardEnv>) => void): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>().basePath(DASHBOARD_BASE);
  app.use('*', async (c, next) => {
    const from = dashboardContexts.get(c.req.raw);
    if (!from) throw new Error('A page group answers only through the dashboard app.');
    for (const key of Object.keys(VARIABLES) as (keyof DashboardVariables)[]) takeOver(c, from, key);
    // The body stream is read once: a form already parsed is handed over, not read again.
    c.req.bodyCache = from.req.bodyCache;
    await next();
  });
  register(app);
  app.notFound((c) => notFoundPage(c));
  app.onError((error) => {
    throw error;
  });
  return app;
}

/**
 * Routes the group's paths of `app` to the group's app, built from its module on the first of
 * them. Its answer keeps what the dashboard's middleware already set (a cookie) and goes back
 * through it (security headers, the request's log line).
 */
export function registerOnDemand(app: Hono<DashboardEnv>, group: PageGroup): void {
  const pages = loadOnce(() => group.load().then(groupApp));
  const answer: Handler<DashboardEnv> = async (c) => {
    const groupPages = await pages();
    dashboardContexts.set(c.req.raw, c);
    const response = await groupPages.fetch(c.req.raw, c.env);
    return c.newResponse(response.body, response);
  };
  for (const path of group.paths) app.all(path, answer);
}
