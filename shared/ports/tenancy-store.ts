import type { AccountStore } from './account-store.js';
import type { AgentKeyStore } from './agent-key-store.js';
import type { TenantStore } from './tenant-store.js';
import type { WorkspaceStore } from './workspace-store.js';

/**
 * Every tenancy port in one, as the DynamoDB adapter builds them over the main table: what a
 * composition root holds. A use case takes only the ports it uses.
 */
export interface TenancyStore extends TenantStore, WorkspaceStore, AgentKeyStore, AccountStore {}
