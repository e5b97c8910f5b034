import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import * as z from 'zod';
import { ServiceUnavailableError } from '../../domain/errors.js';
import type { AppCredentials, AppCredentialsSource, NetworkApp } from '../../ports/app-credentials.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';

/** A rotated secret (put-secret-value) takes effect within this long, without a redeploy. */
export const APP_CREDENTIALS_TTL_MS = 5 * 60 * 1000;

/**
 * What the operator puts in each app's secret (docs/deploy.md): the credentials, and optionally
 * `askMetricsScopes: false` for an app not approved for its metrics-only scopes, and
 * `askCommentScopes: false` for one not approved for its comment-only scopes (AppCredentials).
 */
const secretValue = z.object({
  clientId: z.string().trim().min(1),
  clientSecret: z.string().trim().min(1),
  askMetricsScopes: z.boolean().optional(),
  askCommentScopes: z.boolean().optional(),
  askOptionScopes: z.boolean().optional(),
});

interface Cached {
  credentials: AppCredentials | undefined;
  expiresAt: number;
}

export interface SecretsManagerAppCredentialsOptions {
  client: SecretsManagerClient;
  /** The secret of each app (ARN or name); an app with none has no credentials. */
  secretIds: Readonly<Partial<Record<NetworkApp, string>>>;
  clock: Clock;
  logger: Logger;
  /** @default APP_CREDENTIALS_TTL_MS */
  ttlMs?: number;
}

/**
 * The apps' credentials in AWS: one Secrets Manager secret per app holding
 * `{"clientId": "…", "clientSecret": "…"}`, read the first time an app is needed and kept for
 * `ttlMs`, so a warm function makes one call per app every few minutes and a rotation takes effect
 * within that time. Concurrent first reads share one call.
 *
 * A secret that does not exist, has no value yet, or still holds the stack's placeholder (empty
 * strings) or anything else than that shape is "not configured": undefined, so connecting answers
 * 409 network_not_configured. Any other failure (throttling, access, the network) may hide a
 * configured app, so it is ServiceUnavailableError (503, or a transient failure at delivery), unless
 * a value was read before: that one is used for one more period instead.
 */
export function makeSecretsManagerAppCredentials(
  options: SecretsManagerAppCredentialsOptions,
): AppCredentialsSource {
  const { client, secretIds, clock, logger } = options;
  const ttlMs = options.ttlMs ?? APP_CREDENTIALS_TTL_MS;
  const cache = new Map<NetworkApp, Cached>();
  const inFlight = new Map<NetworkApp, Promise<AppCredentials | undefined>>();

  const read = async (app: NetworkApp, secretId: string): Promise<AppCredentials | undefined> => {
    try {
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
      const parsed = secretValue.safeParse(parseJson(SecretString));
      if (parsed.success) return parsed.data;
      // The value itself is never logged: it may hold a real secret in the wrong shape.
      logger.warn(
        'network app secret is not filled in (expected {"clientId","clientSecret"}, optionally "askMetricsScopes", "askCommentScopes" and "askOptionScopes": booleans)',
        { app },
      );
      return undefined;
    } catch (error) {
      // No such secret, or a secret with no value yet (both answer ResourceNotFoundException).
      if (error instanceof ResourceNotFoundException) {
        logger.warn('network app secret not found, or it has no value', { app });
        return undefined;
      }
      throw error;
    }
  };

  const refresh = async (app: NetworkApp, secretId: string): Promise<AppCredentials | undefined> => {
    const previous = cache.get(app);
    try {
      const credentials = await read(app, secretId);
      cache.set(app, { credentials, expiresAt: clock.now() + ttlMs });
      return credentials;
    } catch (error) {
      if (previous?.credentials) {
        logger.warn('reading a network app secret failed; using the value read before', { app, error });
        cache.set(app, { credentials: previous.credentials, expiresAt: clock.now() + ttlMs });
        return previous.credentials;
      }
      logger.error('reading a network app secret failed', { app, error });
      throw new ServiceUnavailableError(
        "The network's app credentials could not be read just now; try again shortly.",
      );
    }
  };

  return {
    async credentialsFor(app) {
      const secretId = secretIds[app];
      if (!secretId) return undefined;
      const cached = cache.get(app);
      if (cached && cached.expiresAt > clock.now()) return cached.credentials;
      const pending = inFlight.get(app);
      if (pending) return pending;
      const reading = refresh(app, secretId).finally(() => inFlight.delete(app));
      inFlight.set(app, reading);
      return reading;
    },
  };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
