import type { Networks } from '../networks/registry.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { ObjectStorage } from '../ports/object-storage.js';
import type { SecretCipher } from '../ports/secret-cipher.js';
import type { VideoProbe } from '../ports/video-probe.js';
import type { ServiceConfig } from './config.js';
import type { AppCredentialsSource } from './network-config.js';

/**
 * The dependencies that only some functions use, each behind a heavy client (S3, KMS, Secrets
 * Manager and the networks' OAuth code). A function's entry imports only the parts its operations
 * declare in `resources` (infra/operation-entries.ts), so the others stay out of its bundle; the
 * ones it does not import keep their "not configured" stand-ins.
 */
export interface DepsParts {
  storage: ObjectStorage;
  /** Reads a stored video's duration through the same bucket (ranged GETs). */
  videoProbe: VideoProbe;
  secrets: SecretCipher;
  appCredentials: AppCredentialsSource;
  networks: Networks;
}

/** What a part is built from. */
export interface DepsPartContext {
  config: ServiceConfig;
  clock: Clock;
  logger: Logger;
}

export type DepsPart = (context: DepsPartContext) => Partial<DepsParts>;
