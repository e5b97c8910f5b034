import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { makeSecretsManagerAppCredentials } from '../../../shared/adapters/secrets-manager/secrets-manager-app-credentials.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import { ConfigError } from '../../../shared/runtime/config-error.js';
import { askMetricsScopesEnvName, envAppCredentials } from '../../../shared/runtime/network-config.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';

const TIKTOK_SECRET =
  'arn:aws:secretsmanager:eu-west-1:111122223333:secret:social-publishing/test/networks/tiktok';
const secretsMock = mockClient(SecretsManagerClient);

describe("an app's askMetricsScopes setting, where its credentials are", () => {
  beforeEach(() => secretsMock.reset());
  afterAll(() => secretsMock.restore());

  const fromSecret = (value: unknown) => {
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify(value) });
    const logger = makeMemoryLogger();
    const source = makeSecretsManagerAppCredentials({
      client: new SecretsManagerClient({ region: 'eu-west-1' }),
      secretIds: { TIKTOK: TIKTOK_SECRET },
      clock: fixedClock(Date.UTC(2026, 0, 1)),
      logger,
    });
    return { source, logger };
  };

  it('AWS: the secret\'s "askMetricsScopes": false comes with the credentials', async () => {
    const { source } = fromSecret({ clientId: 'key', clientSecret: 'secret', askMetricsScopes: false });

    await expect(source.credentialsFor('TIKTOK')).resolves.toEqual({
      clientId: 'key',
      clientSecret: 'secret',
      askMetricsScopes: false,
    });
  });

  it('AWS: the secret\'s "askCommentScopes": false comes with the credentials too', async () => {
    const { source } = fromSecret({ clientId: 'key', clientSecret: 'secret', askCommentScopes: false });

    await expect(source.credentialsFor('TIKTOK')).resolves.toEqual({
      clientId: 'key',
      clientSecret: 'secret',
      askCommentScopes: false,
    });
  });

  it('AWS: a secret without it asks them, as before', async () => {
    const { source } = fromSecret({ clientId: 'key', clientSecret: 'secret' });

    const credentials = await source.credentialsFor('TIKTOK');

    expect(credentials).toEqual({ clientId: 'key', clientSecret: 'secret' });
    expect(credentials?.askMetricsScopes).toBeUndefined();
  });

  it('AWS: a value that is not a boolean is a secret not filled in, logged without its value', async () => {
    const { source, logger } = fromSecret({
      clientId: 'key',
      clientSecret: 'sEcReT-value-1',
      askMetricsScopes: 'no',
    });

    await expect(source.credentialsFor('TIKTOK')).resolves.toBeUndefined();
    expect(JSON.stringify(logger.entries)).not.toContain('sEcReT-value-1');
    expect(JSON.stringify(logger.entries)).toContain('askMetricsScopes');
  });

  it("local host: <APP>_ASK_METRICS_SCOPES=false comes with that app's credentials only", async () => {
    const env = {
      TIKTOK_CLIENT_ID: 'key',
      TIKTOK_CLIENT_SECRET: 'secret',
      [askMetricsScopesEnvName('TIKTOK')]: 'FALSE',
      INSTAGRAM_CLIENT_ID: 'ig',
      INSTAGRAM_CLIENT_SECRET: 'ig-secret',
    };

    const source = envAppCredentials(env);

    expect(askMetricsScopesEnvName('TIKTOK')).toBe('TIKTOK_ASK_METRICS_SCOPES');
    await expect(source.credentialsFor('TIKTOK')).resolves.toEqual({
      clientId: 'key',
      clientSecret: 'secret',
      askMetricsScopes: false,
    });
    await expect(source.credentialsFor('INSTAGRAM')).resolves.toEqual({
      clientId: 'ig',
      clientSecret: 'ig-secret',
    });
  });

  it('local host: true or unset asks them; anything else fails the start, naming the variable', () => {
    expect(() => envAppCredentials({ INSTAGRAM_ASK_METRICS_SCOPES: 'true' })).not.toThrow();
    expect(() => envAppCredentials({ INSTAGRAM_ASK_METRICS_SCOPES: 'no' })).toThrow(ConfigError);
    expect(() => envAppCredentials({ INSTAGRAM_ASK_METRICS_SCOPES: '0' })).toThrow(
      'INSTAGRAM_ASK_METRICS_SCOPES must be true or false.',
    );
  });
});
