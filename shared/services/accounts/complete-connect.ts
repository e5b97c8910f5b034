import { scopeCovers } from '../../domain/access.js';
import { AppError, ConflictError, ServiceUnavailableError } from '../../domain/errors.js';
import { isIdOf, newId } from '../../domain/ids.js';
import { type RedirectTarget, redirectTarget } from '../../domain/oauth-redirect.js';
import type { Platform } from '../../domain/platforms.js';
import type { Account } from '../../domain/tenancy.js';
import { appClientOf } from '../../networks/app-choice.js';
import { NoAnswerError, RequestNotSentError } from '../../networks/http/network-fetch.js';
import type { NetworkAppClient } from '../../networks/network.js';
import type { Networks } from '../../networks/registry.js';
import type { AccountStore } from '../../ports/account-store.js';
import type { AgentKeyStore } from '../../ports/agent-key-store.js';
import type { AppCredentialsSource } from '../../ports/app-credentials.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import {
  type GrantedAccount,
  GrantRefusedError,
  type NetworkProfile,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import type { OAuthStateStore, PendingConnect } from '../../ports/oauth-state-store.js';
import type { SecretCipher } from '../../ports/secret-cipher.js';
import type { TenantStore } from '../../ports/tenant-store.js';
import { callbackUrl } from './callback-url.js';
import type { ConnectErrorCode } from './connect-errors.js';
import { redeemState } from './oauth-state.js';
import { sealTokens } from './token-vault.js';

/** How long each call to the network (the code exchange, the profile read) may take. */
export const CONNECT_NETWORK_TIMEOUT_MS = 10_000;

export interface CompleteConnectDeps {
  /** Whether the agent may still connect (its tenant and agent), and the account it connects. */
  tenancy: TenantStore & AgentKeyStore & AccountStore;
  networks: Networks;
  appCredentials: AppCredentialsSource;
  /** The callback the code was issued for; absent: the connect fails network_not_configured. */
  publicBaseUrl?: string;
  oauthStates: OAuthStateStore;
  /** Seals the tokens before they are stored. */
  secrets: SecretCipher;
  clock: Clock;
}

/** What the network sent back to the callback. */
export interface CallbackRequest {
  platform: Platform;
  state: string;
  code?: string;
  /** The network's `error` (`access_denied` when the person declined). */
  error?: string;
}

export type ConnectOutcome =
  /** The state is unknown, expired, already used or of another network: nowhere to send the person. */
  | { kind: 'invalid_state' }
  | {
      kind: 'connected';
      /** The first account stored: the one the redirect names. */
      account: Account;
      /** Every account stored, `account` first: several where one consent granted several (readAccounts). */
      accounts: readonly Account[];
      redirectUri?: RedirectTarget;
    }
  | { kind: 'failed'; error: ConnectErrorCode; redirectUri?: RedirectTarget };

/**
 * Whether whoever started the connect may still connect accounts in that workspace: the agent
 * whose key it was, or a dashboard user (`usr_…`, shared/domain/user-access.ts principalFor) whose
 * role the dashboard checked when it started the connect; no operation changes a user's role or
 * workspaces, so for a user only the tenant's plan is read again.
 */
async function agentMayStillConnect(deps: CompleteConnectDeps, pending: PendingConnect): Promise<boolean> {
  if (isIdOf('user', pending.agentId)) {
    const tenant = await deps.tenancy.getTenant(pending.tenantId);
    return tenant?.planStatus === 'active';
  }
  const { tenant, agent } = await deps.tenancy.getTenantAndAgent(pending.tenantId, pending.agentId);
  return (
    tenant?.planStatus === 'active' &&
    agent !== undefined &&
    agent.deletedAt === undefined &&
    agent.permissions.includes('accounts:connect') &&
    scopeCovers(agent, pending.workspaceId)
  );
}

/**
 * The account for this network user: the workspace's earlier one when there is one (its id, its
 * creation time), connected again with the new tokens and profile, its disconnection forgotten.
 */
async function storeAccount(
  deps: CompleteConnectDeps,
  pending: PendingConnect,
  profile: NetworkProfile,
  tokens: TokenSet,
  app: string,
): Promise<Account> {
  const { tenantId, workspaceId, platform } = pending;
  // A second connect of the same person at the same moment makes the first write refuse the other
  // (one account per network user): the loser reads the winner's account and writes over it.
  for (let attempt = 1; ; attempt++) {
    const existing = await deps.tenancy.findAccountByNetworkUser(
      tenantId,
      workspaceId,
      platform,
      profile.networkUserId,
    );
    const now = deps.clock.now();
    const at = new Date(now).toISOString();
    const accountId = existing?.accountId ?? newId('account', now);
    const account: Account = {
      accountId,
      tenantId,
      workspaceId,
      platform,
      displayName: profile.displayName,
      handle: profile.handle,
      status: 'connected',
      sandbox: false,
      connectedAt: at,
      createdAt: existing?.createdAt ?? at,
      networkUserId: profile.networkUserId,
      networkApp: app,
      ...(profile.avatarUrl && { avatarUrl: profile.avatarUrl }),
      scopes: [...tokens.scopes],
      ...(tokens.expiresAt && { tokenExpiresAt: tokens.expiresAt }),
      ...(tokens.refreshExpiresAt && { refreshExpiresAt: tokens.refreshExpiresAt }),
      refreshable: tokens.refreshToken !== undefined,
      encryptedTokens: await sealTokens(deps.secrets, { tenantId, workspaceId, accountId }, tokens),
      // Past the version any refresh in flight read: its write is refused, it re-reads these tokens.
      tokensVersion: (existing?.tokensVersion ?? 0) + 1,
      // A reconnect (to grant the metrics scopes, say) keeps the account's readings so far.
      ...(existing?.metrics && { metrics: existing.metrics }),
    };
    try {
      await deps.tenancy.putAccount(account);
      return account;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 3) throw error;
    }
  }
}

/**
 * The network's part, through the app the connect started with: the code for tokens, the tokens
 * for who the person is; or, where one consent grants several accounts (readAccounts), each of
 * them with its own tokens.
 */
async function authorise(
  client: NetworkAppClient,
  request: { platform: Platform; code: string; codeVerifier?: string; publicBaseUrl: string },
): Promise<readonly GrantedAccount[]> {
  const tokens = await client.oauth.exchangeCode(
    {
      code: request.code,
      redirectUri: callbackUrl(request.publicBaseUrl, request.platform),
      ...(request.codeVerifier !== undefined && { codeVerifier: request.codeVerifier }),
    },
    AbortSignal.timeout(CONNECT_NETWORK_TIMEOUT_MS),
  );
  if (client.oauth.readAccounts)
    return client.oauth.readAccounts(tokens, AbortSignal.timeout(CONNECT_NETWORK_TIMEOUT_MS));
  const profile = await client.oauth.readProfile(
    tokens.accessToken,
    AbortSignal.timeout(CONNECT_NETWORK_TIMEOUT_MS),
  );
  return [{ tokens, profile }];
}

/** Whether an error means "not now" rather than "never": the network or a part of ours was away. */
function isUnavailable(error: unknown): boolean {
  return (
    error instanceof OAuthUnavailableError ||
    error instanceof RequestNotSentError ||
    error instanceof NoAnswerError ||
    error instanceof ServiceUnavailableError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
  );
}

/**
 * The second step of connecting an account: the network sent the person back to our callback.
 * The state is consumed first (a replay finds nothing) and where the person goes back to is
 * settled before anything else (so no account is stored for a callback that could not answer),
 * then the code is exchanged, the profile read, and the account stored with its tokens sealed.
 * Every failure after the state is known is an outcome the caller's redirectUri (or our page) is
 * told of; the code, tokens and verifier are never logged.
 */
export async function completeConnect(
  deps: CompleteConnectDeps,
  request: CallbackRequest,
  logger: Logger,
): Promise<ConnectOutcome> {
  const redeemed = await redeemState(deps, request.state);
  if (!redeemed || redeemed.pending.platform !== request.platform) return { kind: 'invalid_state' };
  const { pending, codeVerifier } = redeemed;
  const log = logger.with({ tenantId: pending.tenantId, workspaceId: pending.workspaceId });
  // Checked at connect; a state stored before a rule existed is normalised here, or not used.
  const returnTo = pending.redirectUri === undefined ? undefined : redirectTarget(pending.redirectUri);
  const failed = (error: ConnectErrorCode): ConnectOutcome => {
    log.info('account connect failed', { platform: pending.platform, reason: error });
    return { kind: 'failed', error, ...(returnTo && { redirectUri: returnTo }) };
  };
  if (pending.redirectUri !== undefined && returnTo === undefined) {
    log.error('the connect’s redirectUri is not a URL: nothing connected', { platform: pending.platform });
    return failed('server_error');
  }
  if (request.error !== undefined)
    return failed(request.error === 'access_denied' ? 'access_denied' : 'network_error');
  if (!request.code) return failed('network_error');
  try {
    if (!(await agentMayStillConnect(deps, pending))) return failed('not_authorized');
    const network = deps.networks.get(pending.platform);
    const client = network && appClientOf(network, pending.app);
    const credentials = client && (await deps.appCredentials.credentialsFor(client.app));
    if (!client || !credentials || !deps.publicBaseUrl) return failed('network_not_configured');
    const granted = await authorise(client, {
      platform: pending.platform,
      code: request.code,
      ...(codeVerifier !== undefined && { codeVerifier }),
      publicBaseUrl: deps.publicBaseUrl,
    });
    const accounts: Account[] = [];
    for (const { profile, tokens } of granted) {
      const account = await storeAccount(deps, pending, profile, tokens, client.app);
      log.info('account connected', { platform: account.platform, accountId: account.accountId });
      accounts.push(account);
    }
    const [account] = accounts;
    if (!account) return failed('no_publishable_account');
    return { kind: 'connected', account, accounts, ...(returnTo && { redirectUri: returnTo }) };
  } catch (error) {
    if (error instanceof GrantRefusedError) {
      log.warn('the network refused the authorization code', { networkCode: error.networkCode });
      return failed('grant_refused');
    }
    if (isUnavailable(error)) {
      log.warn('the connect could not be completed now', { errorName: (error as Error).name });
      return failed('temporarily_unavailable');
    }
    // By name only: an unexpected error from a network's code may quote what the network sent.
    log.error('account connect failed unexpectedly', {
      errorName: error instanceof Error ? error.name : typeof error,
      ...(error instanceof AppError && { code: error.code }),
    });
    return failed('server_error');
  }
}
