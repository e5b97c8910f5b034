import type { Agent, ApiKeyRecord, Tenant } from '../domain/tenancy.js';

/** A tenant's agents and their API keys (stored by hash), and the look-ups that authenticate a key. */
export interface AgentKeyStore {
  putAgent(agent: Agent): Promise<void>;
  getAgent(tenantId: string, agentId: string): Promise<Agent | undefined>;
  /** Every agent of the tenant, deleted ones included, oldest first. */
  listAgents(tenantId: string): Promise<Agent[]>;

  putApiKey(record: ApiKeyRecord): Promise<void>;
  getApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** Marks the key revoked; ConflictError when it already is, NotFoundError when unknown. */
  revokeApiKey(tenantId: string, keyId: string, at: string): Promise<ApiKeyRecord>;
  /** Every key of one agent of the tenant, revoked ones included, oldest first. */
  listApiKeys(tenantId: string, agentId: string): Promise<ApiKeyRecord[]>;
  /** Records that the key authenticated a request at `at`; nothing happens for an unknown key. */
  touchApiKey(keyHash: string, at: string): Promise<void>;

  /** The key's tenant and agent in one round trip (the auth hot path). */
  getTenantAndAgent(tenantId: string, agentId: string): Promise<{ tenant?: Tenant; agent?: Agent }>;
}
