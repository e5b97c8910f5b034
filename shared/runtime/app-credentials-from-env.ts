import { traced } from '../adapters/observability/tracer.js';
import { readAppSecretIds } from '../adapters/secrets-manager/app-secret-env.js';
import { makeSecretsManagerClient } from '../adapters/secrets-manager/client.js';
import { makeSecretsManagerAppCredentials } from '../adapters/secrets-manager/secrets-manager-app-credentials.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { type AppCredentialsSource, envAppCredentials } from './network-config.js';

/**
 * Where a process finds the networks' app credentials: Secrets Manager when its environment names
 * the apps' secrets (`<APP>_APP_SECRET_ARN`, set by the stack), else `<APP>_CLIENT_ID` and
 * `<APP>_CLIENT_SECRET` (the local host, tests).
 */
export function appCredentialsFromEnv(
  context: { region: string; clock: Clock; logger: Logger },
  env: NodeJS.ProcessEnv = process.env,
): AppCredentialsSource {
  const secretIds = readAppSecretIds(env);
  if (Object.keys(secretIds).length === 0) return envAppCredentials(env);
  return makeSecretsManagerAppCredentials({
    client: traced(makeSecretsManagerClient({ region: context.region })),
    secretIds,
    clock: context.clock,
    logger: context.logger,
  });
}
