import '../shared/runtime/source-maps-on-error.js';
import { makePowertoolsLogger } from '../shared/adapters/observability/powertools-logger.js';
import { makeDashboardHandler } from '../shared/dashboard/dashboard-handler.js';
import { dashboardSettingsFromEnv } from '../shared/runtime/dashboard-settings.js';

const settings = dashboardSettingsFromEnv(makePowertoolsLogger());

/**
 * The dashboard's Lambda, behind `ANY /dashboard` and `ANY /dashboard/{proxy+}` on the HTTP API
 * (payload format 2.0: the browser's cookies arrive in `event.cookies`, its Set-Cookie headers
 * leave in `cookies`). The same handler as the local host's. Built with code splitting
 * (infra/constructs/dashboard-endpoint.ts): a cold start loads the settings and the sign-in page;
 * the configuration and the stores (below) and each group of pages (shared/dashboard/app.ts) are
 * chunks imported by the first request that needs them.
 */
export const handler = makeDashboardHandler({
  ...settings,
  loadDeps: () =>
    import('../shared/runtime/dashboard-deps-from-env.js').then((m) => m.makeDashboardDepsFromEnv(settings)),
});
