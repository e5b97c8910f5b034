import {
  CreateSecretCommand,
  DeleteSecretCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SECRET_PLACEHOLDER } from '../../infra/constructs/network-apps.js';
import { makeSecretsManagerClient } from '../../shared/adapters/secrets-manager/client.js';
import {
  APP_CREDENTIALS_TTL_MS,
  makeSecretsManagerAppCredentials,
} from '../../shared/adapters/secrets-manager/secrets-manager-app-credentials.js';
import { fixedClock } from '../../shared/ports/clock.js';
import { makeMemoryLogger } from '../support/memory-observability.js';
import { clientConfig, emulator, uniqueName, useEmulatorEnvironment } from './support.js';

const START = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('Secrets Manager app credentials against the emulator', () => {
  let admin: SecretsManagerClient;
  let client: SecretsManagerClient;
  const secretArns: string[] = [];

  /** A secret as the stack makes it (infra/constructs/network-apps.ts): the placeholder, or a value. */
  const createSecret = async (value: string | undefined) => {
    const { ARN } = await admin.send(
      new CreateSecretCommand({
        Name: uniqueName('social-publishing/emu/networks/x'),
        ...(value !== undefined && { SecretString: value }),
      }),
    );
    if (!ARN) throw new Error('CreateSecret returned no ARN');
    secretArns.push(ARN);
    return ARN;
  };

  const credentialsSource = (secretId: string) => {
    const clock = fixedClock(START);
    const logger = makeMemoryLogger();
    const source = makeSecretsManagerAppCredentials({ client, secretIds: { X: secretId }, clock, logger });
    return { source, clock, logger };
  };

  beforeAll(() => {
    useEmulatorEnvironment();
    admin = new SecretsManagerClient(clientConfig());
    // The project's own factory: in AWS it names only the region; here AWS_ENDPOINT_URL leads it to the emulator.
    client = makeSecretsManagerClient({ region: emulator().region });
  });

  afterAll(async () => {
    for (const arn of secretArns) {
      await admin.send(new DeleteSecretCommand({ SecretId: arn, ForceDeleteWithoutRecovery: true }));
    }
    admin?.destroy();
    client?.destroy();
  });

  it('a filled-in secret gives the app credentials, read by its ARN', async () => {
    // Prepare
    const arn = await createSecret(JSON.stringify({ clientId: 'x-client', clientSecret: 'x-secret' }));
    const { source } = credentialsSource(arn);

    // Act
    const credentials = await source.credentialsFor('X');

    // Assess
    expect(credentials).toEqual({ clientId: 'x-client', clientSecret: 'x-secret' });
  });

  it('the placeholder the stack creates is "not configured", and logged without its value', async () => {
    // Prepare
    const arn = await createSecret(APP_SECRET_PLACEHOLDER);
    const { source, logger } = credentialsSource(arn);

    // Act
    const credentials = await source.credentialsFor('X');

    // Assess
    expect(credentials).toBeUndefined();
    expect(logger.entries.map((entry) => entry.level)).toEqual(['warn']);
    expect(JSON.stringify(logger.entries)).not.toContain('clientSecret":""');
  });

  it('a secret that does not exist, or has no value yet, is "not configured" (ResourceNotFoundException)', async () => {
    // Prepare
    const empty = await createSecret(undefined);
    const missing = credentialsSource(
      `arn:aws:secretsmanager:${emulator().region}:123456789012:secret:absent-AbCdEf`,
    );
    const valueless = credentialsSource(empty);

    // Act
    const fromMissing = await missing.source.credentialsFor('X');
    const fromValueless = await valueless.source.credentialsFor('X');

    // Assess
    expect(fromMissing).toBeUndefined();
    expect(fromValueless).toBeUndefined();
    expect(missing.logger.entries.map((entry) => entry.message)).toEqual([
      'network app secret not found, or it has no value',
    ]);
    expect(valueless.logger.entries.map((entry) => entry.message)).toEqual([
      'network app secret not found, or it has no value',
    ]);
  });

  it('a rotated value (PutSecretValue) is read once the cached one is older than the TTL', async () => {
    // Prepare
    const arn = await createSecret(JSON.stringify({ clientId: 'old-id', clientSecret: 'old-secret' }));
    const { source, clock } = credentialsSource(arn);
    await source.credentialsFor('X');
    await admin.send(
      new PutSecretValueCommand({
        SecretId: arn,
        SecretString: JSON.stringify({ clientId: 'new-id', clientSecret: 'new-secret' }),
      }),
    );

    // Act
    const withinTtl = await source.credentialsFor('X');
    clock.advance(APP_CREDENTIALS_TTL_MS);
    const afterTtl = await source.credentialsFor('X');

    // Assess
    expect(withinTtl?.clientId).toBe('old-id');
    expect(afterTtl).toEqual({ clientId: 'new-id', clientSecret: 'new-secret' });
  });
});
