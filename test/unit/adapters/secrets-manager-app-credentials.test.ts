import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  appSecretEnvName,
  readAppSecretIds,
} from '../../../shared/adapters/secrets-manager/app-secret-env.js';
import {
  APP_CREDENTIALS_TTL_MS,
  makeSecretsManagerAppCredentials,
} from '../../../shared/adapters/secrets-manager/secrets-manager-app-credentials.js';
import { ServiceUnavailableError } from '../../../shared/domain/errors.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import { appCredentialsFromEnv } from '../../../shared/runtime/app-credentials-from-env.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';

const X_SECRET =
  'arn:aws:secretsmanager:eu-west-1:111122223333:secret:social-publishing/test/networks/x-AbCdEf';
const LINKEDIN_SECRET =
  'arn:aws:secretsmanager:eu-west-1:111122223333:secret:social-publishing/test/networks/linkedin-GhIjKl';
const X_VALUE = { clientId: 'x-client-id', clientSecret: 'x-client-secret-value' };

const secretsMock = mockClient(SecretsManagerClient);

function notFound(): ResourceNotFoundException {
  return new ResourceNotFoundException({
    message: "Secrets Manager can't find the specified secret.",
    $metadata: {},
  });
}

function makeSource() {
  const clock = fixedClock(Date.UTC(2026, 0, 1));
  const logger = makeMemoryLogger();
  const source = makeSecretsManagerAppCredentials({
    client: new SecretsManagerClient({ region: 'eu-west-1' }),
    secretIds: { X: X_SECRET, LINKEDIN: LINKEDIN_SECRET },
    clock,
    logger,
  });
  return { source, clock, logger };
}

const reads = () =>
  secretsMock.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input.SecretId);

describe('makeSecretsManagerAppCredentials', () => {
  beforeEach(() => {
    secretsMock.reset();
  });

  it("reads the app's own secret by its ARN and answers its client id and secret", async () => {
    // Prepare
    secretsMock
      .on(GetSecretValueCommand, { SecretId: X_SECRET })
      .resolves({ SecretString: JSON.stringify(X_VALUE) });
    const { source } = makeSource();

    // Act
    const credentials = await source.credentialsFor('X');

    // Assess
    expect(credentials).toEqual(X_VALUE);
    expect(reads()).toEqual([X_SECRET]);
  });

  it('answers undefined for an app the environment names no secret for, without calling AWS', async () => {
    // Prepare
    const { source } = makeSource();

    // Act
    const credentials = await source.credentialsFor('TIKTOK');

    // Assess
    expect(credentials).toBeUndefined();
    expect(reads()).toEqual([]);
  });

  it.each([
    ['the stack’s placeholder (empty strings)', JSON.stringify({ clientId: '', clientSecret: '' })],
    ['blank strings', JSON.stringify({ clientId: '  ', clientSecret: 'secret' })],
    ['a missing client secret', JSON.stringify({ clientId: 'id' })],
    ['text that is not JSON', 'x-client-id:x-client-secret-value'],
    ['JSON of another shape', JSON.stringify(['x-client-id', 'x-client-secret-value'])],
  ])(
    'answers undefined (not configured) for a secret holding %s, and never logs the value',
    async (_case, value) => {
      // Prepare
      secretsMock.on(GetSecretValueCommand).resolves({ SecretString: value });
      const { source, logger } = makeSource();

      // Act
      const credentials = await source.credentialsFor('X');

      // Assess
      expect(credentials).toBeUndefined();
      expect(logger.entries).toHaveLength(1);
      expect(logger.entries[0]?.fields).toEqual({ app: 'X' });
      expect(JSON.stringify(logger.entries)).not.toContain('x-client-secret-value');
    },
  );

  it('answers undefined when the secret does not exist or has no value yet', async () => {
    // Prepare
    secretsMock.on(GetSecretValueCommand).rejects(notFound());
    const { source } = makeSource();

    // Act
    const credentials = await source.credentialsFor('LINKEDIN');

    // Assess
    expect(credentials).toBeUndefined();
    expect(reads()).toEqual([LINKEDIN_SECRET]);
  });

  it('keeps what it read for the TTL, then reads again, so a rotated secret takes effect', async () => {
    // Prepare
    const rotated = { clientId: 'x-client-id', clientSecret: 'rotated-secret' };
    secretsMock
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: JSON.stringify(X_VALUE) })
      .resolves({ SecretString: JSON.stringify(rotated) });
    const { source, clock } = makeSource();
    await source.credentialsFor('X');

    // Act
    clock.advance(APP_CREDENTIALS_TTL_MS - 1);
    const withinTtl = await source.credentialsFor('X');
    clock.advance(1);
    const afterTtl = await source.credentialsFor('X');

    // Assess
    expect(withinTtl).toEqual(X_VALUE);
    expect(afterTtl).toEqual(rotated);
    expect(reads()).toEqual([X_SECRET, X_SECRET]);
  });

  it('keeps "not configured" for the TTL too, and sees the secret once it is filled in', async () => {
    // Prepare
    secretsMock
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: JSON.stringify({ clientId: '', clientSecret: '' }) })
      .resolves({ SecretString: JSON.stringify(X_VALUE) });
    const { source, clock } = makeSource();

    // Act
    const first = await source.credentialsFor('X');
    const again = await source.credentialsFor('X');
    clock.advance(APP_CREDENTIALS_TTL_MS);
    const filledIn = await source.credentialsFor('X');

    // Assess
    expect([first, again, filledIn]).toEqual([undefined, undefined, X_VALUE]);
    expect(reads()).toHaveLength(2);
  });

  it('shares one read among concurrent first calls for an app, and reads each app apart', async () => {
    // Prepare
    secretsMock
      .on(GetSecretValueCommand, { SecretId: X_SECRET })
      .resolves({ SecretString: JSON.stringify(X_VALUE) })
      .on(GetSecretValueCommand, { SecretId: LINKEDIN_SECRET })
      .resolves({ SecretString: JSON.stringify({ clientId: 'li-id', clientSecret: 'li-secret' }) });
    const { source } = makeSource();

    // Act
    const answers = await Promise.all([
      source.credentialsFor('X'),
      source.credentialsFor('X'),
      source.credentialsFor('LINKEDIN'),
      source.credentialsFor('X'),
    ]);

    // Assess
    expect(answers.map((answer) => answer?.clientId)).toEqual([
      'x-client-id',
      'x-client-id',
      'li-id',
      'x-client-id',
    ]);
    expect(reads().sort()).toEqual([LINKEDIN_SECRET, X_SECRET].sort());
  });

  it('a failed read with nothing read before is a 503, not "not configured", and is not kept', async () => {
    // Prepare
    secretsMock
      .on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }))
      .resolves({ SecretString: JSON.stringify(X_VALUE) });
    const { source, logger } = makeSource();

    // Act
    const failure = await source.credentialsFor('X').catch((error: unknown) => error);
    const retried = await source.credentialsFor('X');

    // Assess
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(retried).toEqual(X_VALUE);
    expect(logger.entries.map((entry) => [entry.level, entry.fields.app])).toEqual([['error', 'X']]);
  });

  it('a failed read after a good one keeps the value read before for another period', async () => {
    // Prepare
    secretsMock
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: JSON.stringify(X_VALUE) })
      .rejects(Object.assign(new Error('connect ETIMEDOUT'), { name: 'TimeoutError' }));
    const { source, clock, logger } = makeSource();
    await source.credentialsFor('X');
    clock.advance(APP_CREDENTIALS_TTL_MS);

    // Act
    const stale = await source.credentialsFor('X');
    const keptFor = await source.credentialsFor('X');

    // Assess
    expect(stale).toEqual(X_VALUE);
    expect(keptFor).toEqual(X_VALUE);
    expect(reads()).toHaveLength(2);
    expect(logger.entries.map((entry) => entry.level)).toEqual(['warn']);
    expect(JSON.stringify(logger.entries)).not.toContain('x-client-secret-value');
  });
});

describe('app secret environment', () => {
  it('names one variable per app, and reads those set (trimmed), ignoring empty ones', () => {
    // Prepare
    const env = {
      [appSecretEnvName('X')]: ` ${X_SECRET} `,
      [appSecretEnvName('GOOGLE')]: 'social-publishing/test/networks/google',
      [appSecretEnvName('TIKTOK')]: '',
      X_CLIENT_ID: 'ignored here',
    };

    // Act
    const ids = readAppSecretIds(env);

    // Assess
    expect(appSecretEnvName('LINKEDIN')).toBe('LINKEDIN_APP_SECRET_ARN');
    expect(ids).toEqual({ X: X_SECRET, GOOGLE: 'social-publishing/test/networks/google' });
  });
});

describe('appCredentialsFromEnv', () => {
  const context = () => ({ region: 'eu-west-1', clock: fixedClock(0), logger: makeMemoryLogger() });

  beforeEach(() => {
    secretsMock.reset();
  });

  it('reads Secrets Manager when the environment names the apps’ secrets, and ignores <APP>_CLIENT_ID there', async () => {
    // Prepare
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify(X_VALUE) });
    const env = { X_APP_SECRET_ARN: X_SECRET, LINKEDIN_CLIENT_ID: 'id', LINKEDIN_CLIENT_SECRET: 'secret' };

    // Act
    const source = appCredentialsFromEnv(context(), env);

    // Assess
    expect(await source.credentialsFor('X')).toEqual(X_VALUE);
    expect(await source.credentialsFor('LINKEDIN')).toBeUndefined();
    expect(reads()).toEqual([X_SECRET]);
  });

  it('reads <APP>_CLIENT_ID and <APP>_CLIENT_SECRET when no secret is named (the local host)', async () => {
    // Act
    const source = appCredentialsFromEnv(context(), {
      LINKEDIN_CLIENT_ID: 'id',
      LINKEDIN_CLIENT_SECRET: 'secret',
    });

    // Assess
    expect(await source.credentialsFor('LINKEDIN')).toEqual({ clientId: 'id', clientSecret: 'secret' });
    expect(reads()).toEqual([]);
  });
});
