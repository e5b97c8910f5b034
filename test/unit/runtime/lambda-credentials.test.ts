import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../../shared/runtime/config.js';
import {
  credentialsTreatedAsExpired,
  credentialsWillNeedRefresh,
  defaultProvider,
} from '../../../shared/runtime/lambda-credentials.js';

describe('the Lambda bundles’ credential provider (the environment Lambda sets)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('answers the role credentials Lambda puts in the environment', async () => {
    // Prepare
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'token');

    // Act
    const credentials = await defaultProvider({})();

    // Assess
    expect(credentials).toEqual({
      accessKeyId: 'ASIAEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'token',
    });
    expect(credentialsWillNeedRefresh(credentials)).toBe(false);
    expect(credentialsTreatedAsExpired(credentials)).toBe(false);
  });

  it('refuses with a sentence when the environment has none, instead of looking elsewhere', async () => {
    // Prepare
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');

    // Act + Assess
    await expect(defaultProvider()()).rejects.toThrow(ConfigError);
    await expect(defaultProvider()()).rejects.toThrow(/AWS_ACCESS_KEY_ID/);
  });

  it('treats credentials that expire within five minutes as expired, as the SDK’s chain does', () => {
    const soon = { accessKeyId: 'a', secretAccessKey: 'b', expiration: new Date(Date.now() + 60_000) };
    const later = { accessKeyId: 'a', secretAccessKey: 'b', expiration: new Date(Date.now() + 3_600_000) };
    expect(credentialsTreatedAsExpired(soon)).toBe(true);
    expect(credentialsTreatedAsExpired(later)).toBe(false);
    expect(credentialsWillNeedRefresh(later)).toBe(true);
  });
});
