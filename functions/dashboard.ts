import '../shared/runtime/source-maps-on-error.js';
import { makeDashboardHandler } from '../shared/dashboard/dashboard-handler.js';
import { loadConfig } from '../shared/runtime/config.js';
import { makeDashboardDeps, secureCookiesFor } from '../shared/runtime/make-dashboard-deps.js';
import { makeDeps } from '../shared/runtime/make-deps.js';
import { makeUserStoreFromConfig } from '../shared/runtime/make-user-store.js';
import { mediaStorageOrigin } from '../shared/runtime/media-storage-origin.js';

const config = loadConfig();
const services = makeDeps(config);

/**
 * The dashboard's Lambda, behind `ANY /dashboard` and `ANY /dashboard/{proxy+}` on the HTTP API
 * (payload format 2.0: the browser's cookies arrive in `event.cookies`, its Set-Cookie headers
 * leave in `cookies`). The same handler as the local host's, built once per cold start.
 */
export const handler = makeDashboardHandler(
  makeDashboardDeps({
    services,
    users: makeUserStoreFromConfig(config),
    secureCookies: secureCookiesFor(config.publicBaseUrl),
    mediaStorageOrigin: mediaStorageOrigin(config),
    logger: services.logger,
  }),
);
