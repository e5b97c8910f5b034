import type { Account } from '../../domain/tenancy.js';
import type { Logger } from '../../ports/logger.js';
import { DISCONNECT_REASONS, makeAccountCredentials } from '../accounts/account-credentials.js';
import type { DeliveryDeps } from './delivery-deps.js';
import type { Authorised } from './publish.js';
import type { StepResult } from './verdict.js';

export const ACCOUNT_DISCONNECTED_MESSAGE = 'The account was disconnected; reconnect it and post again.';
const REFUSED_MESSAGES: Readonly<Record<string, string>> = {
  [DISCONNECT_REASONS.refreshRefused]:
    "The network refused to renew the account's authorisation; reconnect the account and post again.",
  [DISCONNECT_REASONS.tokenExpired]:
    "The account's access token expired or was refused, and the network gives no way to renew it; reconnect the account and post again.",
};
const REFRESH_UNAVAILABLE_MESSAGE =
  "The network could not renew the account's authorisation just now; the post will be tried again.";

/**
 * Step 4b, credentials (docs/delivery.md "Credentials"): a real network's account publishes with
 * its access token, refreshed first when it expires within five minutes (or, `force`, when the
 * network has just refused it), through the same code as the daily sweep
 * (shared/services/accounts/account-credentials.ts). A sandbox account needs none.
 * - a refresh the network refuses: the account is disconnected (account.disconnected follows) and
 *   the post fails account_disconnected, not retryable;
 * - the network's OAuth does not answer: a transient failure, retried like any other;
 * - stored tokens that cannot be read: the post fails, not retryable (reconnect the account).
 */
export function makeAuthorise(
  deps: Pick<DeliveryDeps, 'tenancy' | 'secrets' | 'networks' | 'clock' | 'metrics'>,
) {
  const credentials = makeAccountCredentials(deps);

  return async function authorise(
    account: Account,
    signal: AbortSignal,
    log: Logger,
    options: { force?: boolean } = {},
  ): Promise<StepResult<Authorised>> {
    if (account.sandbox) return { proceed: { account } };
    const outcome = await credentials(account, { signal, ...options }, log);
    switch (outcome.kind) {
      case 'ready':
        return {
          proceed: { account: outcome.account, credentials: { accessToken: outcome.tokens.accessToken } },
        };
      case 'refused':
        return {
          settle: {
            kind: 'fail',
            error: {
              origin: 'service',
              code: 'account_disconnected',
              message: REFUSED_MESSAGES[outcome.reason] ?? ACCOUNT_DISCONNECTED_MESSAGE,
              platformRawCode: outcome.networkCode,
              retryable: false,
            },
          },
        };
      case 'disconnected':
        return {
          settle: {
            kind: 'fail',
            error: {
              origin: 'service',
              code: 'account_disconnected',
              message: ACCOUNT_DISCONNECTED_MESSAGE,
              retryable: false,
            },
          },
        };
      case 'unavailable':
        return {
          settle: {
            kind: 'failure',
            origin: 'platform',
            facts: {
              failure: 'transient',
              code: 'TOKEN_REFRESH_FAILED',
              message: REFRESH_UNAVAILABLE_MESSAGE,
              ...(outcome.networkCode && { platformRawCode: outcome.networkCode }),
            },
          },
        };
      case 'unreadable':
        return {
          settle: {
            kind: 'fail',
            error: {
              origin: 'service',
              code: 'account_credentials_unreadable',
              message: `${outcome.message} Reconnect the account and post again.`,
              retryable: false,
            },
          },
        };
    }
  };
}
