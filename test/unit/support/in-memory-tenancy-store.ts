import type { AccountMetricsState } from '../../../shared/domain/account-metrics.js';
import { ConflictError, NotFoundError } from '../../../shared/domain/errors.js';
import type { MetricsCollectionSetting } from '../../../shared/domain/metrics-settings.js';
import type { Platform } from '../../../shared/domain/platforms.js';
import type { WorkspacePolicies } from '../../../shared/domain/policies.js';
import type { Account, Agent, ApiKeyRecord, Tenant, Workspace } from '../../../shared/domain/tenancy.js';
import type { TokenChange } from '../../../shared/ports/account-store.js';
import type { Page, PageRequest } from '../../../shared/ports/page.js';
import type { TenancyStore } from '../../../shared/ports/tenancy-store.js';

/** Pages a list by position: the cursor is the index of the next item, as a string. */
function paginate<T>(items: T[], page: PageRequest): Page<T> {
  const start = page.cursor ? Number(page.cursor) : 0;
  const slice = items.slice(start, start + page.limit);
  const next = start + page.limit;
  return next < items.length ? { items: slice, nextCursor: String(next) } : { items: slice };
}

/**
 * A Map-backed TenancyStore for unit tests: the same contract as the DynamoDB adapter, no network.
 * `reads` counts the calls that the authentication hot path makes, so a test can tell a cache hit
 * from a store read.
 */
export class InMemoryTenancyStore implements TenancyStore {
  readonly reads = { getApiKeyByHash: 0, getTenantAndAgent: 0 };
  /** Counts the one write of the authentication path (recording a key's last use). */
  readonly writes = { touchApiKey: 0 };
  private readonly tenants = new Map<string, Tenant>();
  private readonly workspaces = new Map<string, Workspace>();
  private readonly agents = new Map<string, Agent>();
  private readonly keysByHash = new Map<string, ApiKeyRecord>();
  private readonly accounts = new Map<string, Account>();
  /** (tenant, workspace, platform, network user) → account id, as the DynamoDB look-up item. */
  private readonly accountsByNetworkUser = new Map<string, string>();

  async putTenant(tenant: Tenant): Promise<void> {
    this.tenants.set(tenant.tenantId, structuredClone(tenant));
  }

  async getTenant(tenantId: string): Promise<Tenant | undefined> {
    const tenant = this.tenants.get(tenantId);
    return tenant && structuredClone(tenant);
  }

  async setPlan(tenantId: string, change: Partial<Pick<Tenant, 'planStatus' | 'planTier'>>): Promise<Tenant> {
    const tenant = this.tenants.get(tenantId);
    if (!tenant) throw new NotFoundError();
    const updated = { ...tenant, ...change };
    this.tenants.set(tenantId, updated);
    return structuredClone(updated);
  }

  async putWorkspace(workspace: Workspace): Promise<void> {
    this.workspaces.set(`${workspace.tenantId}/${workspace.workspaceId}`, structuredClone(workspace));
  }

  async getWorkspace(tenantId: string, workspaceId: string): Promise<Workspace | undefined> {
    const workspace = this.workspaces.get(`${tenantId}/${workspaceId}`);
    return workspace && structuredClone(workspace);
  }

  async markAccountDisconnected(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    change: { at: string; reason: string },
  ): Promise<boolean> {
    const key = `${tenantId}/${workspaceId}/${accountId}`;
    const account = this.accounts.get(key);
    if (account?.status !== 'connected') return false;
    const {
      encryptedTokens: _tokens,
      tokenExpiresAt: _expiresAt,
      refreshExpiresAt: _refreshExpiresAt,
      ...kept
    } = account;
    this.accounts.set(key, {
      ...kept,
      status: 'disconnected',
      disconnectedAt: change.at,
      disconnectReason: change.reason,
      tokensVersion: (account.tokensVersion ?? 0) + 1,
    });
    return true;
  }

  async setWorkspacePolicies(
    tenantId: string,
    workspaceId: string,
    policies: WorkspacePolicies,
  ): Promise<Workspace> {
    const workspace = this.workspaces.get(`${tenantId}/${workspaceId}`);
    if (!workspace) throw new NotFoundError('No such workspace.');
    const updated = { ...workspace, policies: structuredClone(policies) };
    this.workspaces.set(`${tenantId}/${workspaceId}`, updated);
    return structuredClone(updated);
  }

  async setMetricsCollection(
    tenantId: string,
    workspaceId: string,
    setting: MetricsCollectionSetting | undefined,
  ): Promise<Workspace> {
    const workspace = this.workspaces.get(`${tenantId}/${workspaceId}`);
    if (!workspace) throw new NotFoundError('No such workspace.');
    const { metricsCollection: _previous, ...rest } = workspace;
    const updated: Workspace = { ...rest, ...(setting && { metricsCollection: structuredClone(setting) }) };
    this.workspaces.set(`${tenantId}/${workspaceId}`, updated);
    return structuredClone(updated);
  }

  async setOAuthRedirectUris(
    tenantId: string,
    workspaceId: string | undefined,
    uris: string[],
  ): Promise<void> {
    const withUris = <T extends { oauthRedirectUris?: string[] }>(record: T): T => {
      const { oauthRedirectUris: _old, ...rest } = record;
      return (uris.length > 0 ? { ...rest, oauthRedirectUris: [...uris] } : rest) as T;
    };
    if (workspaceId === undefined) {
      const tenant = this.tenants.get(tenantId);
      if (!tenant) throw new NotFoundError('No such tenant.');
      this.tenants.set(tenantId, withUris(tenant));
      return;
    }
    const workspace = this.workspaces.get(`${tenantId}/${workspaceId}`);
    if (!workspace) throw new NotFoundError('No such workspace.');
    this.workspaces.set(`${tenantId}/${workspaceId}`, withUris(workspace));
  }

  async listWorkspaces(
    tenantId: string,
    page: PageRequest,
    visible: (workspace: Workspace) => boolean = () => true,
  ): Promise<Page<Workspace>> {
    const mine = [...this.workspaces.values()]
      .filter((workspace) => workspace.tenantId === tenantId && visible(workspace))
      .sort((a, b) => a.workspaceId.localeCompare(b.workspaceId));
    return paginate(structuredClone(mine), page);
  }

  async renameWorkspace(tenantId: string, workspaceId: string, name: string): Promise<Workspace> {
    const workspace = this.workspaces.get(`${tenantId}/${workspaceId}`);
    if (!workspace) throw new NotFoundError('No such workspace.');
    const updated = { ...workspace, name };
    this.workspaces.set(`${tenantId}/${workspaceId}`, updated);
    return structuredClone(updated);
  }

  async listAgents(tenantId: string): Promise<Agent[]> {
    return structuredClone(
      [...this.agents.values()]
        .filter((agent) => agent.tenantId === tenantId)
        .sort((a, b) => a.agentId.localeCompare(b.agentId)),
    );
  }

  async listApiKeys(tenantId: string, agentId: string): Promise<ApiKeyRecord[]> {
    return structuredClone(
      [...this.keysByHash.values()]
        .filter((record) => record.tenantId === tenantId && record.agentId === agentId)
        .sort((a, b) => a.keyId.localeCompare(b.keyId)),
    );
  }

  async touchApiKey(keyHash: string, at: string): Promise<void> {
    this.writes.touchApiKey += 1;
    const record = this.keysByHash.get(keyHash);
    if (record && (!record.lastUsedAt || record.lastUsedAt < at)) record.lastUsedAt = at;
  }

  async putAgent(agent: Agent): Promise<void> {
    this.agents.set(`${agent.tenantId}/${agent.agentId}`, structuredClone(agent));
  }

  async getAgent(tenantId: string, agentId: string): Promise<Agent | undefined> {
    const agent = this.agents.get(`${tenantId}/${agentId}`);
    return agent && structuredClone(agent);
  }

  async putApiKey(record: ApiKeyRecord): Promise<void> {
    this.keysByHash.set(record.keyHash, structuredClone(record));
  }

  async getApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    this.reads.getApiKeyByHash += 1;
    const record = this.keysByHash.get(keyHash);
    return record && structuredClone(record);
  }

  async revokeApiKey(tenantId: string, keyId: string, at: string): Promise<ApiKeyRecord> {
    const record = [...this.keysByHash.values()].find(
      (candidate) => candidate.tenantId === tenantId && candidate.keyId === keyId,
    );
    if (!record) throw new NotFoundError();
    if (record.revokedAt) throw new ConflictError('The API key is already revoked.');
    record.revokedAt = at;
    return structuredClone(record);
  }

  async getTenantAndAgent(tenantId: string, agentId: string): Promise<{ tenant?: Tenant; agent?: Agent }> {
    this.reads.getTenantAndAgent += 1;
    const tenant = await this.getTenant(tenantId);
    const agent = await this.getAgent(tenantId, agentId);
    return { ...(tenant && { tenant }), ...(agent && { agent }) };
  }

  async putAccount(account: Account): Promise<void> {
    if (account.networkUserId) {
      const userKey = this.networkUserKey(account, account.networkUserId);
      const holder = this.accountsByNetworkUser.get(userKey);
      if (holder && holder !== account.accountId) {
        throw new ConflictError(
          'Another account of this workspace was connected for this network user at the same time. Retry.',
        );
      }
      this.accountsByNetworkUser.set(userKey, account.accountId);
    }
    this.accounts.set(
      `${account.tenantId}/${account.workspaceId}/${account.accountId}`,
      structuredClone(account),
    );
  }

  async findAccountByNetworkUser(
    tenantId: string,
    workspaceId: string,
    platform: Platform,
    networkUserId: string,
  ): Promise<Account | undefined> {
    const accountId = this.accountsByNetworkUser.get(
      this.networkUserKey({ tenantId, workspaceId, platform }, networkUserId),
    );
    return accountId ? this.getAccount(tenantId, workspaceId, accountId) : undefined;
  }

  async recordAccountMetrics(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    metrics: AccountMetricsState,
  ): Promise<boolean> {
    const key = `${tenantId}/${workspaceId}/${accountId}`;
    const account = this.accounts.get(key);
    if (!account) return false;
    this.accounts.set(key, { ...account, metrics: structuredClone(metrics) });
    return true;
  }

  async replaceAccountTokens(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    change: TokenChange,
  ): Promise<boolean> {
    const key = `${tenantId}/${workspaceId}/${accountId}`;
    const account = this.accounts.get(key);
    if (account?.status !== 'connected') return false;
    if ((account.tokensVersion ?? 0) !== change.expectedVersion) return false;
    const { tokenExpiresAt: _expiresAt, refreshExpiresAt: _refreshExpiresAt, ...kept } = account;
    this.accounts.set(key, {
      ...kept,
      encryptedTokens: change.encryptedTokens,
      tokensVersion: change.expectedVersion + 1,
      scopes: [...change.scopes],
      ...(change.tokenExpiresAt && { tokenExpiresAt: change.tokenExpiresAt }),
      ...(change.refreshExpiresAt && { refreshExpiresAt: change.refreshExpiresAt }),
    });
    return true;
  }

  async listAccountsExpiringBefore(before: string, page: PageRequest): Promise<Page<Account>> {
    const limit = Date.parse(before);
    const expiring = [...this.accounts.values()]
      .filter(
        (account) =>
          !account.sandbox &&
          account.status === 'connected' &&
          account.encryptedTokens !== undefined &&
          account.tokenExpiresAt !== undefined &&
          Date.parse(account.tokenExpiresAt) < limit,
      )
      .sort(
        (a, b) =>
          Date.parse(a.tokenExpiresAt ?? '') - Date.parse(b.tokenExpiresAt ?? '') ||
          a.accountId.localeCompare(b.accountId),
      );
    return paginate(structuredClone(expiring), page);
  }

  private networkUserKey(
    scope: { tenantId: string; workspaceId: string; platform: Platform },
    networkUserId: string,
  ): string {
    return JSON.stringify([scope.tenantId, scope.workspaceId, scope.platform, networkUserId]);
  }

  async getAccount(tenantId: string, workspaceId: string, accountId: string): Promise<Account | undefined> {
    const account = this.accounts.get(`${tenantId}/${workspaceId}/${accountId}`);
    return account && structuredClone(account);
  }

  async listAccounts(
    tenantId: string,
    workspaceId: string,
    page: PageRequest,
    filter?: { platform?: string },
  ): Promise<Page<Account>> {
    const mine = [...this.accounts.values()]
      .filter((account) => account.tenantId === tenantId && account.workspaceId === workspaceId)
      .filter((account) => !filter?.platform || account.platform === filter.platform)
      .sort((a, b) => a.accountId.localeCompare(b.accountId));
    return paginate(structuredClone(mine), page);
  }
}
