import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { asServiceUnavailable, outageSummary } from '../adapters/aws/dependency-outage.js';
import { registerAssets } from './assets.js';
import { csrfProtection } from './csrf.js';
import { DASHBOARD_BASE, type DashboardDeps, type DashboardEnv } from './env.js';
import { html } from './html.js';
import { errorPage, notFoundPage } from './pages.js';
import { requestContext } from './request-context.js';
import { registerAccountRoutes } from './routes/accounts.js';
import { registerAgentRoutes } from './routes/agents.js';
import { registerApprovalRoutes } from './routes/approvals.js';
import { registerAuthRoutes, registerPublicAuthRoutes } from './routes/auth.js';
import { registerCalendarRoutes } from './routes/calendar.js';
import { registerComposeRoutes } from './routes/compose.js';
import { registerPolicyRoutes } from './routes/policies.js';
import { registerPostRoutes } from './routes/posts.js';
import { registerUserRoutes } from './routes/users.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { registerWorkspaceRoutes } from './routes/workspaces.js';
import { securityHeaders } from './security-headers.js';
import { loadSession, requireSignedIn } from './session.js';
import { workspaceGuard } from './workspace-guard.js';

/**
 * The dashboard (docs/dashboard.md): server-rendered pages under /dashboard, for the people of a
 * tenant. Middleware runs in this order on every request:
 * 1. request id, logger and the one log line per request;
 * 2. security headers (CSP without inline script, no framing);
 * 3. Origin check of form posts (hono/csrf), then the session, then the CSRF token of the form;
 * 4. the public pages (sign-in, one-time links, assets); everything after needs a session;
 * 5. on `/workspaces/:workspaceId/…`, the workspace guard (404 unless visible, 403 on POST unless
 *    administered).
 * Every action calls the API's operations or the admin use cases: no page writes to a store itself.
 */
export function makeDashboardApp(deps: DashboardDeps): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>().basePath(DASHBOARD_BASE);
  app.use('*', requestContext(deps));
  app.use('*', securityHeaders);
  registerAssets(app);
  app.use('*', csrf());
  app.use('*', loadSession);
  app.use('*', csrfProtection);
  registerPublicAuthRoutes(app);

  app.use('*', requireSignedIn);
  app.use('/workspaces/:workspaceId', workspaceGuard);
  app.use('/workspaces/:workspaceId/*', workspaceGuard);
  app.get('/', (c) => c.redirect(`${DASHBOARD_BASE}/workspaces`, 303));
  registerAuthRoutes(app);
  registerUserRoutes(app);
  registerWorkspaceRoutes(app);
  registerAgentRoutes(app);
  registerPolicyRoutes(app);
  registerAccountRoutes(app);
  // Before the posts' routes: `/posts/new` is the composer, not a post id.
  registerComposeRoutes(app);
  registerPostRoutes(app);
  registerCalendarRoutes(app);
  registerApprovalRoutes(app);
  registerWebhookRoutes(app);

  app.notFound((c) => notFoundPage(c));
  app.onError((error, c) => {
    // Hono's own refusals (the Origin check of a form post): their status, said in words.
    if (error instanceof HTTPException && error.status === 403) {
      return errorPage(
        c,
        403,
        'This form has expired',
        html`<p>Reload the page and try again. Nothing was changed.</p>`,
      );
    }
    const log = c.var.logger ?? deps.logger;
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
