import type { DashboardDeps } from '../dashboard/env.js';
import type { Logger } from '../ports/logger.js';
import type { UserStore } from '../ports/user-store.js';
import { makeAdmin } from '../services/admin.js';
import { makeDashboardAuth } from '../services/users/make-dashboard-auth.js';
import type { ServiceDeps } from './deps.js';

export interface DashboardDepsInput {
  /** The operations' deps (`makeDeps`): the dashboard's actions run the API's operations. */
  services: ServiceDeps;
  users: UserStore;
  /** Whether cookies carry `Secure` (`secureCookiesFor`). */
  secureCookies: boolean;
  /** Where browsers PUT uploads (`mediaStorageOrigin`); absent without a bucket. */
  mediaStorageOrigin?: string;
  logger: Logger;
}

/**
 * The dashboard's deps over the service's own: the admin CLI's use cases and the people's use
 * cases read and write the same stores, with the same clock, as the operations do. The Lambda
 * (functions/dashboard.ts) and the local host both build the dashboard through this.
 */
export function makeDashboardDeps({
  services,
  users,
  secureCookies,
  mediaStorageOrigin,
  logger,
}: DashboardDepsInput): DashboardDeps {
  const { tenancy, clock } = services;
  return {
    services,
    admin: makeAdmin({ tenancy, clock }),
    auth: makeDashboardAuth({ users, tenancy, clock, logger }),
    users,
    secureCookies,
    ...(mediaStorageOrigin && { mediaStorageOrigin }),
    logger,
  };
}
