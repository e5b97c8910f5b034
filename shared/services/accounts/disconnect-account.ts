import { NotFoundError } from '../../domain/errors.js';
import type { Account } from '../../domain/tenancy.js';
import { appClientOf } from '../../networks/app-choice.js';
import type { Networks } from '../../networks/registry.js';
import type { AccountStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { SecretCipher } from '../../ports/secret-cipher.js';
import { openTokens } from './token-vault.js';

/** The account's `disconnectReason` when it was disconnected through the API. */
export const DISCONNECTED_BY_USER = 'disconnected_by_user';

/** How long the revocation at the network may take; it never holds up the disconnect for longer. */
export const REVOKE_TIMEOUT_MS = 5_000;

export interface DisconnectDeps {
  tenancy: AccountStore;
  /** The network's OAuth revokes the grant, where it can. */
  networks: Networks;
  /** Opens the tokens to revoke. */
  secrets: SecretCipher;
  clock: Clock;
}

/**
 * Asks the network to revoke the grant, where it can. Best effort: the account is disconnected
 * already, and a failure here (no revoke endpoint, the tokens do not open, the network refuses or
 * is away) is logged, by name only, and otherwise ignored.
 */
async function revokeAtNetwork(
  deps: DisconnectDeps,
  account: Account,
  encryptedTokens: string,
  log: Logger,
): Promise<void> {
  // Only the app the tokens were issued to can revoke them.
  const network = deps.networks.get(account.platform);
  const oauth = network && appClientOf(network, account.networkApp)?.oauth;
  if (!oauth?.revoke) return;
  try {
    const tokens = await openTokens(deps.secrets, account, encryptedTokens);
    await oauth.revoke(tokens, AbortSignal.timeout(REVOKE_TIMEOUT_MS));
    log.info('grant revoked at the network', { accountId: account.accountId, platform: account.platform });
  } catch (error) {
    log.warn('grant not revoked at the network', {
      accountId: account.accountId,
      platform: account.platform,
      errorName: error instanceof Error ? error.name : typeof error,
    });
  }
}

/**
 * Disconnects an account (DELETE …/accounts/{account_id}): status disconnected, reason
 * disconnected_by_user, tokens removed (account.disconnected follows from the table's stream), then
 * the grant revoked at the network, best effort. Sandbox accounts disconnect the same way, with
 * nothing to revoke. An account already disconnected is left as it is: the call is idempotent.
 */
export async function disconnectAccount(
  deps: DisconnectDeps,
  target: { tenantId: string; workspaceId: string; accountId: string },
  log: Logger,
): Promise<void> {
  const account = await deps.tenancy.getAccount(target.tenantId, target.workspaceId, target.accountId);
  if (!account) throw new NotFoundError();
  if (account.status !== 'connected') return;
  const changed = await deps.tenancy.markAccountDisconnected(
    target.tenantId,
    target.workspaceId,
    target.accountId,
    { at: new Date(deps.clock.now()).toISOString(), reason: DISCONNECTED_BY_USER },
  );
  // Lost to another disconnect: that one owned the tokens it removed.
  if (!changed || account.sandbox || !account.encryptedTokens) return;
  await revokeAtNetwork(deps, account, account.encryptedTokens, log);
}
