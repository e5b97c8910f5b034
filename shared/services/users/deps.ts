import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { TenantStore } from '../../ports/tenant-store.js';
import type { UserStore } from '../../ports/user-store.js';
import type { WorkspaceStore } from '../../ports/workspace-store.js';

/** What the dashboard's people use cases need. */
export interface UsersDeps {
  users: UserStore;
  /** The user's tenant (its plan) and the workspaces an invitation may name. */
  tenancy: TenantStore & WorkspaceStore;
  clock: Clock;
  logger: Logger;
}
