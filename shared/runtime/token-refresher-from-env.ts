import { makeRefreshExpiringTokens } from '../services/accounts/refresh-expiring-tokens.js';
import { makeInvocationLogger } from '../triggers/invocation-logger.js';
import { loadConfig } from './config.js';
import { makeDeps } from './make-deps.js';

/**
 * The token sweep of a Lambda, configured from its environment (read once, at cold start): the
 * service's stores, the token cipher (KMS) and the networks with their app credentials; no queue.
 */
export function tokenRefresherFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const deps = makeDeps(loadConfig(env));
  return {
    refreshTokens: makeRefreshExpiringTokens(deps),
    invocationLogger: makeInvocationLogger(deps.logger),
  };
}
