import { makePowertoolsMetrics } from '../adapters/observability/powertools-metrics.js';
import type { DashboardDeps, DashboardSettings } from '../dashboard/env.js';
import { systemClock } from '../ports/clock.js';
import { loadConfig } from './config.js';
import { makeDashboardDeps } from './make-dashboard-deps.js';
import { makeDeps } from './make-deps.js';
import { makeUserStoreFromConfig } from './make-user-store.js';

/**
 * The dashboard Lambda's deps, from its environment: every adapter of the operations it runs (the
 * AWS SDK's clients, the operations' stores) and its people's store. functions/dashboard.ts
 * imports this module on the first request that needs a store, so the sign-in page of a cold
 * start loads none of it; a missing setting fails that request.
 */
export function makeDashboardDepsFromEnv(settings: DashboardSettings): DashboardDeps {
  const config = loadConfig();
  const services = makeDeps(config, systemClock, {
    logger: settings.logger,
    metrics: makePowertoolsMetrics(),
  });
  return makeDashboardDeps({ ...settings, services, users: makeUserStoreFromConfig(config) });
}
