import type { AccountMetricsState } from '../domain/account-metrics.js';
import type { Platform } from '../domain/platforms.js';
import type { Account } from '../domain/tenancy.js';
import type { Page, PageRequest } from './page.js';

export interface TokenChange {
  expectedVersion: number;
  encryptedTokens: string;
  tokenExpiresAt?: string;
  refreshExpiresAt?: string;
  scopes: string[];
}

/** A workspace's connected network accounts and their (encrypted) tokens. */
export interface AccountStore {
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
   * Replaces the account's metrics (the daily sweep's reading), touching nothing else of it: false
   * when there is no such account (nothing written).
   */
  recordAccountMetrics(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    metrics: AccountMetricsState,
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
