import { describe, expect, it } from 'vitest';
import { TABLES } from '../../../shared/adapters/dynamodb/tables.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { loadConfig } from '../../../shared/runtime/config.js';
import { dashboardSettingsFromEnv } from '../../../shared/runtime/dashboard-settings.js';
import { mediaStorageOrigin } from '../../../shared/runtime/media-storage-origin.js';
import { secureCookiesFor } from '../../../shared/runtime/secure-cookies.js';

const TABLE_ENV = Object.fromEntries(TABLES.map((table) => [table.envVar, `test-${table.id}`]));

/** Environments a dashboard may be given: the stack's (with or without a bucket), the local host's. */
const ENVIRONMENTS: Record<string, NodeJS.ProcessEnv> = {
  'AWS, with a bucket': {
    ...TABLE_ENV,
    AWS_REGION: 'eu-west-1',
    MEDIA_BUCKET: 'socialpublishing-test-media',
    PUBLIC_BASE_URL: 'https://api.example.com/',
  },
  'AWS in China, the region only as the default': {
    ...TABLE_ENV,
    AWS_DEFAULT_REGION: 'cn-north-1',
    MEDIA_BUCKET: 'media',
    PUBLIC_BASE_URL: 'https://api.example.cn',
  },
  'no bucket, no public base URL': { ...TABLE_ENV },
  'the local host: s3rver, plain http': {
    ...TABLE_ENV,
    S3_ENDPOINT: 'http://127.0.0.1:4569',
    MEDIA_BUCKET: 'local-media',
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
  },
};

/**
 * The cold start reads the dashboard's settings without loadConfig (its network endpoints weigh);
 * they must be what loadConfig's configuration would give, or the CSP or the cookies would change
 * once the deps load.
 */
describe('dashboardSettingsFromEnv', () => {
  for (const [name, env] of Object.entries(ENVIRONMENTS)) {
    it(`agrees with loadConfig: ${name}`, () => {
      // Prepare
      const config = loadConfig(env);
      const origin = mediaStorageOrigin(config);

      // Act
      const settings = dashboardSettingsFromEnv(silentLogger, env);

      // Assess
      expect(settings).toEqual({
        secureCookies: secureCookiesFor(config.publicBaseUrl),
        ...(origin && { mediaStorageOrigin: origin }),
        logger: silentLogger,
      });
    });
  }

  it('keeps cookies Secure over https and without a public base URL, and not over plain http', () => {
    // Act
    const secure = Object.values(ENVIRONMENTS).map(
      (env) => dashboardSettingsFromEnv(silentLogger, env).secureCookies,
    );

    // Assess
    expect(secure).toEqual([true, true, true, false]);
  });
});
