import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TenancyStore } from '../../ports/tenancy-store.js';
import { makeDynamoAccountStore } from './account-store.js';
import { makeDynamoAgentKeyStore } from './agent-key-store.js';
import { makeDynamoTenantStore } from './tenant-store.js';
import { makeDynamoWorkspaceStore } from './workspace-store.js';

/**
 * Tenants, workspaces, agents, API keys and accounts, all in the main table (docs/data-model.md):
 * the four tenancy ports, each from its own factory, for a composition root that hands them out.
 */
export function makeDynamoTenancyStore(db: DynamoDBDocumentClient, tableName: string): TenancyStore {
  return {
    ...makeDynamoTenantStore(db, tableName),
    ...makeDynamoWorkspaceStore(db, tableName),
    ...makeDynamoAgentKeyStore(db, tableName),
    ...makeDynamoAccountStore(db, tableName),
  };
}
