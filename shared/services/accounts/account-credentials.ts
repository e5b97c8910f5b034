import type { Account } from '../../domain/tenancy.js';
import { appClientOf } from '../../networks/app-choice.js';
import type { Networks } from '../../networks/registry.js';
import type { AccountStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';
import {
  GrantRefusedError,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import { type SecretCipher, SecretDecryptionError } from '../../ports/secret-cipher.js';
import { openTokens, sealTokens } from './token-vault.js';

/** An access token expiring within this is refreshed before use. */
export const REFRESH_AHEAD_MS = 5 * 60 * 1000;
/** How long a refresh may take before the caller gives up on it (the network is then "unavailable"). */
export const REFRESH_TIMEOUT_MS = 15 * 1000;

/**
 * After a refused refresh, the pauses before looking again for a concurrent winner's tokens (1.5 s
 * in all): its write follows its refresh answer by a seal and one conditional write. A refusal
 * still unexplained after them disconnects the account.
 */
export const REFRESH_RACE_WAITS_MS: readonly number[] = [50, 150, 300, 1000];

/** Why an account was disconnected by this module (the account's `disconnectReason`). */
export const DISCONNECT_REASONS = {
  /** The network refused the refresh (`invalid_grant`): the grant is gone. */
  refreshRefused: 'refresh_refused',
  /** The access token is expired, or refused, and the network gives no way to renew it. */
  tokenExpired: 'token_expired',
} as const;

export interface AccountCredentialsDeps {
  tenancy: AccountStore;
  /** The cipher the tokens are sealed with (purpose `oauth-token`). */
  secrets: SecretCipher;
  networks: Networks;
  clock: Clock;
  metrics: Metrics;
  /** How the waits of REFRESH_RACE_WAITS_MS pass (real time by default; tests pass their clock's). */
  sleep?: (ms: number) => Promise<void>;
}

/** What `credentials` found for a real-network account. */
export type CredentialsOutcome =
  /** Tokens to use: `account` is the record they belong to (re-read after a refresh or a lost race). */
  | { kind: 'ready'; account: Account; tokens: TokenSet; refreshed: boolean }
  /** The grant is gone: the account is disconnected now (account.disconnected follows). */
  | { kind: 'refused'; account: Account; networkCode: string; reason: string }
  /** The network's OAuth did not answer usably: try again later. */
  | { kind: 'unavailable'; message: string; networkCode?: string }
  /** Nothing usable is stored (no tokens, or a ciphertext that does not open): reconnect. */
  | { kind: 'unreadable'; message: string }
  /** The account is not connected (any more); nothing was refreshed. */
  | { kind: 'disconnected'; account: Account | undefined };

export interface CredentialsRequest {
  signal: AbortSignal;
  /**
   * Refresh now, whatever the expiry says: the network refused the access token (`auth_rejected`).
   * If someone else rotated the tokens meanwhile, theirs are used instead.
   */
  force?: boolean;
  /** Refresh a token expiring within this (REFRESH_AHEAD_MS unless given: the sweep looks further). */
  aheadMs?: number;
}

type RefreshingProvider = OAuthProvider & Required<Pick<OAuthProvider, 'refresh'>>;

/**
 * Whether a token set can be renewed: the network refreshes, and there is a refresh token to do it
 * with. The one place this is decided (a network that refreshes with the access token itself, as
 * part 2's photo network does, changes it here).
 */
export function canRefresh(
  provider: OAuthProvider | undefined,
  tokens: TokenSet,
): provider is RefreshingProvider {
  return provider?.refresh !== undefined && tokens.refreshToken !== undefined;
}

/**
 * An account's tokens, fresh: opened from the account (token-vault.ts), refreshed when they expire
 * within REFRESH_AHEAD_MS (or when forced), and the new set persisted with the account's
 * `tokensVersion` as condition BEFORE it is used, since a rotating network (X) kills the old refresh
 * token at once. A lost race (someone else wrote first) re-reads the account and uses what the
 * winner wrote, and so does a refresh refused because the winner had already used the refresh
 * token. A refresh the network refuses for good disconnects the account (`refresh_refused`); an
 * expired or refused token that cannot be renewed disconnects it too (`token_expired`). The
 * delivery worker and the daily sweep both come through here. Tokens are never logged.
 */
export function makeAccountCredentials(deps: AccountCredentialsDeps) {
  const nowIso = () => new Date(deps.clock.now()).toISOString();

  const reread = (account: Account) =>
    deps.tenancy.getAccount(account.tenantId, account.workspaceId, account.accountId);

  const disconnect = async (
    account: Account,
    reason: string,
    networkCode: string,
  ): Promise<CredentialsOutcome> => {
    await deps.tenancy.markAccountDisconnected(account.tenantId, account.workspaceId, account.accountId, {
      at: nowIso(),
      reason,
    });
    return { kind: 'refused', account, networkCode, reason };
  };

  const open = async (account: Account): Promise<TokenSet | CredentialsOutcome> => {
    if (!account.encryptedTokens) {
      return { kind: 'unreadable', message: 'The account has no stored authorisation.' };
    }
    try {
      return await openTokens(deps.secrets, account, account.encryptedTokens);
    } catch (error) {
      if (error instanceof SecretDecryptionError) {
        return { kind: 'unreadable', message: "The account's stored authorisation cannot be read." };
      }
      // The key service itself failed (KMS throttled or unreachable): worth trying again.
      return { kind: 'unavailable', message: "The account's authorisation could not be decrypted now." };
    }
  };

  /**
   * Whether someone else wrote the account's tokens since `account` was read. Asked after a refused
   * refresh: the winner of a race used the refresh token first, but writes the rotated pair only
   * after the network answered it, so a first look may come too early. It is asked again over
   * REFRESH_RACE_WAITS_MS before the refusal is taken as the grant being gone (which disconnects).
   */
  const rotatedMeanwhile = async (account: Account): Promise<boolean> => {
    const changed = async () => {
      const current = await reread(account);
      return current !== undefined && (current.tokensVersion ?? 0) !== (account.tokensVersion ?? 0);
    };
    if (await changed()) return true;
    const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    for (const waitMs of REFRESH_RACE_WAITS_MS) {
      await sleep(waitMs);
      if (await changed()) return true;
    }
    return false;
  };

  /** The account as stored now, with its tokens, if it is still connected (after a lost race). */
  const winner = async (account: Account, logger?: Logger): Promise<CredentialsOutcome> => {
    const current = await reread(account);
    if (current?.status !== 'connected') return { kind: 'disconnected', account: current };
    const tokens = await open(current);
    if ('kind' in tokens) return tokens;
    logger?.info('another writer renewed the tokens first; using theirs');
    return { kind: 'ready', account: current, tokens, refreshed: true };
  };

  const refresh = async (
    account: Account,
    tokens: TokenSet,
    provider: RefreshingProvider,
    signal: AbortSignal,
    logger?: Logger,
  ): Promise<CredentialsOutcome> => {
    const counted = (outcome: 'renewed' | 'refused' | 'unavailable') =>
      deps.metrics.count('TokenRefreshes', { platform: account.platform, outcome });
    let renewed: TokenSet;
    try {
      renewed = await provider.refresh(tokens, signal);
    } catch (error) {
      if (error instanceof GrantRefusedError) {
        // A rotating network refuses a refresh token already used: if someone else rotated it, theirs stand.
        if (await rotatedMeanwhile(account)) return winner(account, logger);
        counted('refused');
        logger?.warn('the network refused to renew the authorisation; disconnecting the account', {
          networkCode: error.networkCode,
        });
        return disconnect(account, DISCONNECT_REASONS.refreshRefused, error.networkCode);
      }
      counted('unavailable');
      const networkCode = error instanceof OAuthUnavailableError ? error.networkCode : undefined;
      logger?.warn('renewing the authorisation failed; trying again later', {
        errorName: error instanceof Error ? error.name : typeof error,
        ...(networkCode && { networkCode }),
      });
      return {
        kind: 'unavailable',
        message: 'The network did not renew the authorisation in time.',
        ...(networkCode && { networkCode }),
      };
    }
    const merged: TokenSet = {
      ...renewed,
      // A network that does not rotate answers without a refresh token: the one held stays good.
      ...(!renewed.refreshToken && tokens.refreshToken && { refreshToken: tokens.refreshToken }),
      ...(!renewed.refreshExpiresAt &&
        tokens.refreshExpiresAt && { refreshExpiresAt: tokens.refreshExpiresAt }),
      scopes: renewed.scopes.length > 0 ? renewed.scopes : tokens.scopes,
    };
    const encryptedTokens = await sealTokens(deps.secrets, account, merged);
    const expectedVersion = account.tokensVersion ?? 0;
    const written = await deps.tenancy.replaceAccountTokens(
      account.tenantId,
      account.workspaceId,
      account.accountId,
      {
        expectedVersion,
        encryptedTokens,
        scopes: merged.scopes,
        ...(merged.expiresAt && { tokenExpiresAt: merged.expiresAt }),
        ...(merged.refreshExpiresAt && { refreshExpiresAt: merged.refreshExpiresAt }),
      },
    );
    counted('renewed');
    if (!written) return winner(account, logger);
    logger?.info('renewed the account’s authorisation', {
      ...(merged.expiresAt && { tokenExpiresAt: merged.expiresAt }),
    });
    const { tokenExpiresAt: _old, refreshExpiresAt: _oldRefresh, ...rest } = account;
    return {
      kind: 'ready',
      account: {
        ...rest,
        encryptedTokens,
        tokensVersion: expectedVersion + 1,
        scopes: merged.scopes,
        ...(merged.expiresAt && { tokenExpiresAt: merged.expiresAt }),
        ...(merged.refreshExpiresAt && { refreshExpiresAt: merged.refreshExpiresAt }),
      },
      tokens: merged,
      refreshed: true,
    };
  };

  return async function credentials(
    given: Account,
    request: CredentialsRequest,
    logger?: Logger,
  ): Promise<CredentialsOutcome> {
    // Forced: the token in hand was refused; the stored one may be newer than the copy given.
    const account = request.force ? await reread(given) : given;
    if (account?.status !== 'connected') return { kind: 'disconnected', account };
    if (request.force && (account.tokensVersion ?? 0) !== (given.tokensVersion ?? 0)) {
      return winner(account, logger);
    }
    const tokens = await open(account);
    if ('kind' in tokens) return tokens;
    const now = deps.clock.now();
    const expiresAt = tokens.expiresAt ? Date.parse(tokens.expiresAt) : undefined;
    const expiring = expiresAt !== undefined && expiresAt - now <= (request.aheadMs ?? REFRESH_AHEAD_MS);
    if (!request.force && !expiring) return { kind: 'ready', account, tokens, refreshed: false };
    // The app the tokens were issued to: only its client can renew them.
    const network = deps.networks.get(account.platform);
    const provider = network && appClientOf(network, account.networkApp)?.oauth;
    if (!canRefresh(provider, tokens)) {
      const dead = request.force || (expiresAt !== undefined && expiresAt <= now);
      if (!dead) return { kind: 'ready', account, tokens, refreshed: false };
      logger?.warn('the access token cannot be renewed; disconnecting the account');
      return disconnect(
        account,
        DISCONNECT_REASONS.tokenExpired,
        request.force ? 'token_rejected' : 'token_expired',
      );
    }
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(REFRESH_TIMEOUT_MS)]);
    return refresh(account, tokens, provider, signal, logger);
  };
}

export type AccountCredentials = ReturnType<typeof makeAccountCredentials>;
