import { describe, expect, it } from 'vitest';
import { metricsFailureOf } from '../../../shared/networks/tiktok/metrics-failures.js';

const READ = { what: 'the video query', scope: 'video.list' };
const answer = (status: number, code: string) => ({ status, code, data: undefined });

describe("TikTok's metrics failures", () => {
  it.each([
    [401, 'scope_not_authorized', 'missing_scopes'],
    [400, 'scope_permission_missed', 'missing_scopes'],
    [200, 'scope_not_authorized', 'missing_scopes'],
    [401, 'access_token_invalid', 'auth_failed'],
    [200, 'access_token_invalid', 'auth_failed'],
    [401, 'http_401', 'auth_failed'],
    [429, 'rate_limit_exceeded', 'rate_limited'],
    [200, 'rate_limit_exceeded', 'rate_limited'],
    [429, 'http_429', 'rate_limited'],
    [500, 'internal_error', 'unavailable'],
    [503, 'http_503', 'unavailable'],
    [400, 'invalid_params', 'unavailable'],
    [200, 'unreadable', 'unavailable'],
  ])('maps HTTP %i with error.code %s to %s', (status, code, failure) => {
    expect(metricsFailureOf(answer(status, code), null, READ).failure).toBe(failure);
  });

  it('names the scope the read needs when TikTok says it was not granted', () => {
    expect(metricsFailureOf(answer(401, 'scope_not_authorized'), null, READ).missingScopes).toEqual([
      'video.list',
    ]);
  });

  it('waits TikTok’s one-minute window, or a Retry-After should one come', () => {
    expect(metricsFailureOf(answer(429, 'rate_limit_exceeded'), null, READ).retryAfterSeconds).toBe(60);
    expect(metricsFailureOf(answer(429, 'rate_limit_exceeded'), '17', READ).retryAfterSeconds).toBe(17);
    expect(metricsFailureOf(answer(429, 'rate_limit_exceeded'), 'soon', READ).retryAfterSeconds).toBe(60);
  });
});
