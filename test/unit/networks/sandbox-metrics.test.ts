import { describe, expect, it } from 'vitest';
import { PLATFORMS, type Platform } from '../../../shared/domain/platforms.js';
import type { NetworkDefinition } from '../../../shared/networks/definition.js';
import { definitionOf } from '../../../shared/networks/definitions.js';
import { makeMemorySandboxLedger, makeSandboxConnector } from '../../../shared/networks/sandbox/index.js';
import type { MetricsTarget, PostMetricsRequest } from '../../../shared/ports/connector.js';
import { anAccount } from '../support/builders.js';

const PUBLISHED = '2026-03-01T12:00:00.000Z';
const HOUR = 3_600_000;

function aReader(platform: Platform = 'linkedin') {
  let now = Date.parse(PUBLISHED);
  const connector = makeSandboxConnector({
    ledger: makeMemorySandboxLedger(),
    now: () => now,
    latencyMs: { min: 0, max: 0 },
  });
  const account = anAccount({ platform, connectedAt: PUBLISHED });
  const target = (postId: string, text = 'Hello'): MetricsTarget => ({
    postId,
    platformPostId: `net-${postId}`,
    publishedAt: PUBLISHED,
    texts: [text],
  });
  const read = (posts: MetricsTarget[]) => {
    const request: PostMetricsRequest = { account, posts, signal: new AbortController().signal };
    return (connector.readPostMetrics as NonNullable<typeof connector.readPostMetrics>)(request);
  };
  return {
    connector,
    account,
    target,
    read,
    at: (hours: number) => (now = Date.parse(PUBLISHED) + hours * HOUR),
  };
}

describe('the sandbox’s post metrics', () => {
  it('grow with the clock, the same for the same post, different between posts', async () => {
    const { read, target, at } = aReader();
    at(1);
    const early = await read([target('a'), target('b')]);
    at(24);
    const later = await read([target('a')]);
    const again = await read([target('a')]);
    if (early.kind !== 'metrics' || later.kind !== 'metrics' || again.kind !== 'metrics')
      throw new Error('no numbers');
    const [a1, b1, a24] = [early.byPost.a ?? {}, early.byPost.b ?? {}, later.byPost.a ?? {}];
    expect(again.byPost.a).toEqual(a24);
    expect(a1).not.toEqual(b1);
    for (const [field, value] of Object.entries(a24)) {
      expect(value).toBeGreaterThanOrEqual(a1[field as keyof typeof a1] ?? 0);
    }
    expect(Object.values(a24).some((value, i) => value > (Object.values(a1)[i] ?? 0))).toBe(true);
  });

  it.each(PLATFORMS)('answers on %s only the fields its network reports', async (platform) => {
    const { read, target, at } = aReader(platform);
    at(6);
    const answer = await read([target('a')]);
    if (answer.kind !== 'metrics') throw new Error('no numbers');
    const definition: NetworkDefinition = definitionOf(platform);
    const reported = Object.keys(definition.metrics?.fields ?? {});
    if (reported.length > 0) {
      for (const field of Object.keys(answer.byPost.a ?? {})) expect(reported).toContain(field);
    }
  });

  it('answers a deleted post in notFound, the rest with numbers', async () => {
    const { read, target, at } = aReader();
    at(1);
    expect(await read([target('a', 'Gone [sandbox:metrics_not_found]'), target('b')])).toMatchObject({
      kind: 'metrics',
      notFound: ['a'],
      byPost: { b: expect.any(Object) },
    });
  });

  it('rate limits reads until N minutes after the first collection’s time', async () => {
    const { read, target, at } = aReader();
    const post = target('a', 'Busy [sandbox:metrics_rate_limited:5]');
    at(1);
    expect(await read([post])).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      retryAfterSeconds: 60,
    });
    at(1 + 6 / 60);
    expect((await read([post])).kind).toBe('metrics');
  });

  it.each([
    ['metrics_missing_scopes', 'missing_scopes'],
    ['metrics_auth_failed', 'auth_failed'],
    ['metrics_unavailable', 'unavailable'],
  ] as const)('[sandbox:%s] fails the whole request with %s', async (token, failure) => {
    const { read, target, at } = aReader();
    at(1);
    const answer = await read([target('a', `x [sandbox:${token}]`), target('b')]);
    expect(answer).toMatchObject({ kind: 'failed', failure });
    if (failure === 'missing_scopes') {
      const definition: NetworkDefinition = definitionOf('linkedin');
      expect(answer).toMatchObject({ missingScopes: definition.metrics?.scopes ?? [] });
    }
  });
});

describe('the sandbox’s account metrics', () => {
  it('gain followers with the days since the account connected', async () => {
    const { connector, account, at } = aReader();
    const read = () =>
      (connector.readAccountMetrics as NonNullable<typeof connector.readAccountMetrics>)({
        account,
        signal: new AbortController().signal,
      });
    at(24);
    const first = await read();
    at(24 * 30);
    const later = await read();
    if (first.kind !== 'metrics' || later.kind !== 'metrics') throw new Error('no numbers');
    expect(later.metrics.followers).toBeGreaterThan(first.metrics.followers ?? 0);
  });
});
