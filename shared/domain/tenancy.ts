import type { AccountMetricsState } from './account-metrics.js';
import type { MetricsCollectionSetting } from './metrics-settings.js';
import type { Permission } from './permissions.js';
import type { Platform } from './platforms.js';
import type { WorkspacePolicies } from './policies.js';
import type { PlanTier } from './rate-limit-policy.js';

export type PlanStatus = 'active' | 'inactive';

export interface Tenant {
  tenantId: string;
  name: string;
  planTier: PlanTier;
  planStatus: PlanStatus;
  createdAt: string;
  /**
   * Where a connect may send the user back (`redirectUri`), for every workspace of the tenant:
   * absolute URLs without query or fragment (shared/domain/oauth-redirect.ts). Set with the admin
   * CLI (set-redirect-uris); absent: none.
   */
  oauthRedirectUris?: string[];
}

export interface Workspace {
  workspaceId: string;
  tenantId: string;
  name: string;
  createdAt: string;
  /** Publishing rules of this workspace; absent: none. */
  policies?: WorkspacePolicies;
  /** Redirect URIs allowed for this workspace's connects, beside the tenant's. */
  oauthRedirectUris?: string[];
  /** Which networks' metrics it collects; absent: the default (domain/metrics-settings.ts). */
  metricsCollection?: MetricsCollectionSetting;
}

/**
 * `selected`: a fixed list of workspaces. `all`: every workspace of the tenant, as they come and go.
 * An agent created from a workspace is `selected` with that one workspace and `lockedWorkspaceId` set.
 */
export type AgentScope = { kind: 'selected'; workspaceIds: string[] } | { kind: 'all' };

export interface Agent {
  agentId: string;
  tenantId: string;
  name: string;
  scope: AgentScope;
  permissions: Permission[];
  /** Set when the agent was created from a workspace: it stays locked to it. */
  lockedWorkspaceId?: string;
  createdAt: string;
  deletedAt?: string;
}

export interface ApiKeyRecord {
  keyId: string;
  tenantId: string;
  agentId: string;
  /** SHA-256 of the plaintext, hex. The plaintext is never stored. */
  keyHash: string;
  /** Last four characters of the plaintext, to tell keys apart. */
  hint: string;
  createdAt: string;
  revokedAt?: string;
  /**
   * When the key last authenticated a request, as seen by a process whose auth cache missed: at
   * most one write per key per cache period per process, so it may lag by that period.
   */
  lastUsedAt?: string;
}

export type AccountStatus = 'connected' | 'disconnected';

export interface Account {
  accountId: string;
  tenantId: string;
  workspaceId: string;
  platform: Platform;
  displayName: string;
  handle: string;
  status: AccountStatus;
  /** Sandbox accounts publish to the simulated network; no OAuth tokens exist for them. */
  sandbox: boolean;
  connectedAt: string;
  createdAt: string;
  /** Set when the network revoked the authorisation; the account needs reconnecting. */
  disconnectedAt?: string;
  disconnectReason?: string;
  /** A real network's account (absent on sandbox accounts): who it is on the network. */
  networkUserId?: string;
  /**
   * The network's developer app the tokens were issued to (a NetworkApp, shared/runtime/
   * network-config.ts: `LINKEDIN` or `LINKEDIN_COMMUNITY` for LinkedIn), written at connect:
   * refresh and revoke use that app's client. Absent (accounts connected before it was recorded):
   * the network's default app.
   */
  networkApp?: string;
  avatarUrl?: string;
  /** The scopes the network granted. */
  scopes?: string[];
  /** When the access token stops working (ISO 8601), where the network says. */
  tokenExpiresAt?: string;
  /** When the refresh token stops working, where the network says; absent: no expiry known. */
  refreshExpiresAt?: string;
  /**
   * Whether the stored tokens include a refresh token (not secret): without one the account needs
   * reconnecting before `tokenExpiresAt`. Set at connect; a refresh keeps it.
   */
  refreshable?: boolean;
  /**
   * The TokenSet as JSON, encrypted (SecretCipher, purpose `oauth-token`, record id = the account
   * id). Never returned by any read model, never logged; decrypted only in the delivery, refresh
   * and disconnect paths.
   */
  encryptedTokens?: string;
  /** Bumped on every token write: a rotation is written only over the version it was read at. */
  tokensVersion?: number;
  /** Its own numbers over time, read by the daily sweep (domain/account-metrics.ts). */
  metrics?: AccountMetricsState;
}

/** Who performs an administrative action; decides what they may create. */
export type Actor =
  | { role: 'super_admin' }
  | { role: 'owner' }
  | { role: 'workspace_admin'; workspaceId: string };

/** The authenticated caller of one request. */
export interface Principal {
  tenant: Tenant;
  agent: Agent;
  keyId: string;
}
