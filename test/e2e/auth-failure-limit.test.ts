import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/ports/clock.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const LIMIT = 5;
const randomKey = () =>
  `smcp_${Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}`;

describe('failed authentications are limited per client address on the local host', () => {
  const clock = fixedClock(Date.now());
  let host: TestHost;
  let tenant: BootstrapResult;
  const listWorkspaces = (apiKey?: string) => host.call('/v1/workspaces', apiKey ? { apiKey } : {});
  /** 401s the handlers answered (each after looking the key up). */
  const handlerFailures = () =>
    host.metricPoints.filter((point) => point.name === 'AuthenticationFailures').length;
  const hostRefusals = () =>
    host.logs.filter((entry) => entry.message.includes('over its failed-authentication limit')).length;

  beforeAll(async () => {
    host = await startTestHost({ clock, authFailuresPerMinute: LIMIT });
    tenant = await host.admin.bootstrap({ name: 'Legitimate caller' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('refuses made-up keys with 429 past the limit, before any handler, while a proven key still passes', async () => {
    // Prepare: the legitimate caller has used its key from this address.
    expect((await listWorkspaces(tenant.apiKey)).status).toBe(200);

    // Act: a flood of random keys from the same address.
    const answers: number[] = [];
    for (let i = 0; i < LIMIT; i++) answers.push((await listWorkspaces(randomKey())).status);
    const refused = await listWorkspaces(randomKey());
    const refusedWithoutKey = await listWorkspaces();

    // Assess: LIMIT answers of 401, then 429 with Retry-After, and no handler ran for them.
    expect(answers).toEqual(Array(LIMIT).fill(401));
    const body = await expectEnvelope(refused, 429, 'rate_limited');
    expect(body.message).toMatch(/invalid API key/);
    expect(refused.headers.get('retry-after')).toBe('60');
    await expectEnvelope(refusedWithoutKey, 429, 'rate_limited');
    expect(handlerFailures()).toBe(LIMIT);
    expect(hostRefusals()).toBe(2);
    expect(host.metricPoints).toContainEqual(
      expect.objectContaining({ name: 'RateLimitedRequests', dimensions: { family: 'auth-failures' } }),
    );

    // The legitimate caller is not locked out with the flood.
    expect((await listWorkspaces(tenant.apiKey)).status).toBe(200);

    // Operations that take no key are not limited.
    expect((await host.call('/v1/openapi.json')).status).not.toBe(429);

    // Once the minute that began with the first failure is over, a new key is looked up again.
    clock.advance(30_000);
    expect((await listWorkspaces(randomKey())).headers.get('retry-after')).toBe('30');
    clock.advance(30_000);
    expect((await listWorkspaces(randomKey())).status).toBe(401);
  });
});
