import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { TenancyStore } from '../../ports/tenancy-store.js';
import type { UserStore } from '../../ports/user-store.js';

/** What the dashboard's people use cases need. */
export interface UsersDeps {
  users: UserStore;
  tenancy: TenancyStore;
  clock: Clock;
  logger: Logger;
}
