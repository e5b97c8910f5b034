import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { registerAssets } from './assets.js';
import { csrfProtection } from './csrf.js';
import { startOf, withDeps } from './deps-on-demand.js';
import { DASHBOARD_BASE, type DashboardEnv, type DashboardInput } from './env.js';
import { html } from './html.js';
import { registerOnDemand } from './lazy-pages.js';
import { IN_WORKSPACE, PAGE_GROUPS } from './page-groups.js';
import { errorPage, notFoundPage } from './pages.js';
import { requestContext } from './request-context.js';
import { registerAuthRoutes, registerPublicAuthRoutes } from './routes/auth.js';
import { securityHeaders } from './security-headers.js';
import { loadSession, requireSignedIn } from './session.js';
import { workspaceGuard } from './workspace-guard.js';

/**
 * The dashboard (docs/dashboard.md): server-rendered pages under /dashboard, for the people of a
 * tenant. Middleware runs in this order on every request:
 * 1. request id, logger and the one log line per request;
 * 2. security headers (CSP without inline script, no framing);
 * 3. Origin check of form posts (hono/csrf), then the session, then the CSRF token of the form;
 * 4. the public pages (sign-in, one-time links, assets); everything after needs a session, and
 *    has the deps;
 * 5. on `/workspaces/:workspaceId/…`, the workspace guard (404 unless visible, 403 on POST unless
 *    administered).
 * Every action calls the API's operations or the admin use cases: no page writes to a store itself.
 * What loads when (docs/dashboard.md, "How pages load"): the sign-in page, assets, redirects and
 * error pages need no store; the deps (DynamoDB and the use cases) are built by the first request
 * that does (deps-on-demand.ts), and each group of pages is imported by its first request.
 */
export function makeDashboardApp(input: DashboardInput): Hono<DashboardEnv> {
  const start = startOf(input);
  const app = new Hono<DashboardEnv>().basePath(DASHBOARD_BASE);
  app.use('*', requestContext(start));
  app.use('*', securityHeaders);
  registerAssets(app);
  app.use('*', csrf());
  app.use('*', loadSession);
  app.use('*', csrfProtection);
  registerPublicAuthRoutes(app);

  app.use('*', requireSignedIn);
  app.use('*', withDeps);
  app.use(IN_WORKSPACE, workspaceGuard);
  app.use(`${IN_WORKSPACE}/*`, workspaceGuard);
  app.get('/', (c) => c.redirect(`${DASHBOARD_BASE}/workspaces`, 303));
  registerAuthRoutes(app);
  for (const group of PAGE_GROUPS) registerOnDemand(app, group);

  app.notFound((c) => notFoundPage(c));
  app.onError(async (error, c) => {
    // Hono's own refusals (the Origin check of a form post): their status, said in words.
    if (error instanceof HTTPException && error.status === 403) {
      return errorPage(
        c,
        403,
        'This form has expired',
        html`<p>Reload the page and try again. Nothing was changed.</p>`,
      );
    }
    const log = c.var.logger ?? start.logger;
    // Imported here: only a store's error is an outage, and the store's chunk (the AWS SDK's
    // retry rules this reads) is loaded by then; the sign-in page of a cold start skips both.
    const { asServiceUnavailable, outageSummary } = await import('../adapters/aws/dependency-outage.js');
    const outage = asServiceUnavailable(error);
    if (outage) {
      log.warn('dashboard: dependency unavailable', outageSummary(error));
      c.header('Retry-After', outage.headers['Retry-After']);
      return errorPage(
        c,
        503,
        'Briefly unavailable',
        html`<p>The service cannot reach its storage right now. Nothing you did is lost; try again in a few seconds.</p>`,
      );
    }
    log.error('dashboard: a page failed', { error });
    return errorPage(
      c,
      500,
      'Something went wrong',
      html`<p>The page could not be shown. Nothing you did is lost; try again. If it keeps happening, give your operator the request id <code>${c.var.requestId ?? 'unknown'}</code>.</p>`,
    );
  });
  return app;
}
