import { type Clock, systemClock } from '../ports/clock.js';
import type { SecretCipher } from '../ports/secret-cipher.js';
import type { ServiceConfig } from './config.js';
import type { ServiceDeps } from './deps.js';
import { kmsSecretsPart } from './kms-secrets-part.js';
import { makeCoreDeps, makeObservability, type Observability } from './make-core-deps.js';
import { networkAppsPart } from './network-apps-part.js';
import type { AppCredentialsSource } from './network-config.js';
import { s3StoragePart } from './s3-storage-part.js';

export { makeObservability, type Observability };

/**
 * Every adapter, for a process that may run any operation (the local host, MCP, the dashboard, the
 * workers). An operation's own Lambda builds only what its operation uses: makeDepsFromEnv.
 */
export function makeDeps(
  config: ServiceConfig,
  clock: Clock = systemClock,
  observability: Observability = makeObservability(),
  /** The local host passes its AES-GCM stand-in; AWS uses KMS when SECRETS_KEY_ARN is set. */
  secrets?: SecretCipher,
  /** Where the networks' app credentials come from: Secrets Manager when the environment names the secrets. */
  appCredentials?: AppCredentialsSource,
): ServiceDeps {
  const context = { config, clock, logger: observability.logger };
  return makeCoreDeps(
    config,
    {
      ...s3StoragePart(context),
      secrets: secrets ?? kmsSecretsPart(context).secrets,
      ...networkAppsPart(context, appCredentials),
    },
    clock,
    observability,
  );
}
