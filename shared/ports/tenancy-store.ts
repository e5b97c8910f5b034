import type { Platform } from '../domain/platforms.js';
import type { WorkspacePolicies } from '../domain/policies.js';
import type { Account, Agent, ApiKeyRecord, Tenant, Workspace } from '../domain/tenancy.js';

export interface Page<T> {
  items: T[];
  /** Opaque; absent on the page that holds the last item, even when that page is exactly full. */
  nextCursor?: string;
}

export interface TokenChange {
  expectedVersion: number;
  encryptedTokens: string;
  tokenExpiresAt?: string;
  refreshExpiresAt?: string;
  scopes: string[];
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** Tenants, workspaces, agents, API keys and accounts. Every read is scoped to a tenant. */
export interface TenancyStore {
  putTenant(tenant: Tenant): Promise<void>;
  getTenant(tenantId: string): Promise<Tenant | undefined>;
  setPlan(tenantId: string, change: Partial<Pick<Tenant, 'planStatus' | 'planTier'>>): Promise<Tenant>;

  putWorkspace(workspace: Workspace): Promise<void>;
  getWorkspace(tenantId: string, workspaceId: string): Promise<Workspace | undefined>;
  /**
   * Oldest first. `visible` narrows the page to what a caller may see (an agent's scope): the page
   * fills with visible workspaces, and its cursor is null once none is left.
   */
  listWorkspaces(
    tenantId: string,
    page: PageRequest,
    visible?: (workspace: Workspace) => boolean,
  ): Promise<Page<Workspace>>;
  /** Changes the workspace's name; NotFoundError when there is no such workspace. */
  renameWorkspace(tenantId: string, workspaceId: string, name: string): Promise<Workspace>;
  /** Replaces the workspace's policies; NotFoundError when there is no such workspace. */
  setWorkspacePolicies(
    tenantId: string,
    workspaceId: string,
    policies: WorkspacePolicies,
  ): Promise<Workspace>;

  /**
   * Replaces the redirect URIs a connect may send the person back to: the tenant's own list when
   * `workspaceId` is undefined, else the workspace's; an empty list removes it. NotFoundError when
   * there is no such tenant or workspace.
   */
  setOAuthRedirectUris(tenantId: string, workspaceId: string | undefined, uris: string[]): Promise<void>;

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

  putAccount(account: Account): Promise<void>;
  /**
   * connected → disconnected, once; false when it was not connected (nothing written). The tokens
   * and their expiry go with the connection and `tokensVersion` moves on, so a refresh in flight
   * cannot write tokens back onto a disconnected account.
   */
  markAccountDisconnected(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    change: { at: string; reason: string },
  ): Promise<boolean>;
  getAccount(tenantId: string, workspaceId: string, accountId: string): Promise<Account | undefined>;
  /** The workspace's account for this network user, if one was connected before (reconnects keep its id). */
  findAccountByNetworkUser(
    tenantId: string,
    workspaceId: string,
    platform: Platform,
    networkUserId: string,
  ): Promise<Account | undefined>;
  /**
   * Writes new encrypted tokens only if `expectedVersion` is still the account's `tokensVersion`
   * (absent counts as 0), bumping it: false when another writer rotated them first (nothing
   * written). A rotated refresh token is persisted this way before anything uses it.
   */
  replaceAccountTokens(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    change: TokenChange,
  ): Promise<boolean>;
  /**
   * Connected real-network accounts whose access token expires before `before`, oldest expiry
   * first, across tenants: the daily refresh sweep's work list.
   */
  listAccountsExpiringBefore(before: string, page: PageRequest): Promise<Page<Account>>;
  listAccounts(
    tenantId: string,
    workspaceId: string,
    page: PageRequest,
    filter?: { platform?: string },
  ): Promise<Page<Account>>;
}
