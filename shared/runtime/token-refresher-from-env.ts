import { makeRefreshExpiringTokens } from '../services/accounts/refresh-expiring-tokens.js';
import { makeInvocationLogger } from '../triggers/invocation-logger.js';
import { loadConfig } from './config.js';
import { makeDeps } from './make-deps.js';

/**
 * The token sweep of a Lambda, configured from its environment (read once, at cold start): the
 * service's stores, the token cipher (KMS) and the networks with their app credentials; no queue.
 * It also reads the accounts' own metrics once a day (docs/metrics.md "Account metrics").
 */
export function tokenRefresherFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const deps = makeDeps(loadConfig(env));
  return {
    // The same run takes each account's daily metrics reading, after the renewals.
    refreshTokens: makeRefreshExpiringTokens({ ...deps, accountMetrics: { workspaces: deps.tenancy } }),
    invocationLogger: makeInvocationLogger(deps.logger),
  };
}
