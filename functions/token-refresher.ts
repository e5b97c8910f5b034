import '../shared/runtime/source-maps-on-error.js';
import '../shared/runtime/with-tracing.js';
import type { Context } from 'aws-lambda';
import { tokenRefresherFromEnv } from '../shared/runtime/token-refresher-from-env.js';

const { refreshTokens, invocationLogger } = tokenRefresherFromEnv();

/**
 * Daily: renew every real-network token that expires within a week, disconnecting the accounts
 * whose renewal the network refuses. Stops taking accounts a minute before the time-out; the next
 * run carries on. The report is logged and returned.
 */
export const handler = async (_event: unknown, context: Context) =>
  refreshTokens({
    logger: invocationLogger(context),
    timeLeftMs: () => context.getRemainingTimeInMillis(),
  });
