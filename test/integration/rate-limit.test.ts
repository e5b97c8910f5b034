import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoRateLimiter } from '../../shared/adapters/dynamodb/rate-limiter.js';
import { limitFor, windowAt } from '../../shared/domain/rate-limit-policy.js';
import { fixedClock } from '../../shared/ports/clock.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

// 20 s into a minute: the window cannot roll over under the test, whatever the wall clock says.
// In the future: DynamoDB Local deletes items whose TTL the wall clock has passed, counters included.
const START = Date.UTC(2099, 0, 1, 12, 0, 20);

describe('rate limits', () => {
  const clock = fixedClock(START);
  let host: TestHost;
  let db: ReturnType<typeof makeDocumentClient>;

  beforeAll(async () => {
    host = await startTestHost({ clock });
    db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
  });
  afterAll(async () => {
    db.destroy();
    await host.stop();
  });

  /** Sets a tenant's counter for the current window, as if `count` requests had already been served. */
  const preload = (tenantId: string, family: string, count: number) =>
    db.send(
      new UpdateCommand({
        TableName: host.config.tables.rateLimits,
        Key: { pk: `${tenantId}#${family}#${windowAt(clock.now()).startMs}` },
        UpdateExpression: 'SET #count = :count',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':count': count },
      }),
    );

  it('N concurrent consumers against a limit L: exactly L are allowed', async () => {
    const limiter = makeDynamoRateLimiter(db, host.config.tables.rateLimits, clock);
    const limit = limitFor('media_uploads', 'free');
    const attempts = limit + 40;
    const decisions = await Promise.all(
      Array.from({ length: attempts }, () => limiter.consume('ten_concurrency', 'media_uploads', 'free')),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(limit);
    expect(decisions.filter((d) => !d.allowed)).toHaveLength(attempts - limit);
    // Every allowed request saw a distinct remaining count: the counter never skipped or repeated.
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    expect(new Set(remaining).size).toBe(limit);
  });

  it('over HTTP, parallel requests past the limit get 429 rate_limited with Retry-After', async () => {
    const tenant: BootstrapResult = await host.admin.bootstrap({ name: 'Busy' });
    const limit = limitFor('other', 'free');
    const left = 7;
    await preload(tenant.tenantId, 'other', limit - left);

    const responses = await Promise.all(
      Array.from({ length: 25 }, () =>
        host.call(`/v1/workspaces/${tenant.workspaceId}/accounts`, { apiKey: tenant.apiKey }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(left);
    expect(limited).toHaveLength(25 - left);

    for (const response of limited) {
      await expectEnvelope(response, 429, 'rate_limited');
      // 20 s into the minute: 40 s to wait.
      expect(response.headers.get('retry-after')).toBe('40');
    }
    const remainders = ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remainders).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(ok[0]?.headers.get('x-ratelimit-limit')).toBe(String(limit));
    expect(ok[0]?.headers.get('x-ratelimit-reset')).toBe(String(windowAt(clock.now()).endMs / 1000));
  });

  it('counts each family apart, scales with the plan, and starts again in the next window', async () => {
    const tenant = await host.admin.bootstrap({ name: 'Pro', planTier: 'pro' });
    const path = `/v1/workspaces/${tenant.workspaceId}/accounts`;
    const first = await host.call(path, { apiKey: tenant.apiKey });
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(limitFor('other', 'pro')));

    await preload(tenant.tenantId, 'other', limitFor('other', 'pro'));
    await expectEnvelope(await host.call(path, { apiKey: tenant.apiKey }), 429, 'rate_limited');
    // Another family of the same tenant is untouched.
    const otherFamily = makeDynamoRateLimiter(db, host.config.tables.rateLimits, clock);
    expect((await otherFamily.consume(tenant.tenantId, 'posts_read', 'pro')).allowed).toBe(true);

    clock.advance(60_000);
    const nextWindow = await host.call(path, { apiKey: tenant.apiKey });
    expect(nextWindow.status).toBe(200);
    expect(nextWindow.headers.get('x-ratelimit-remaining')).toBe(String(limitFor('other', 'pro') - 1));
  });

  it('counters carry a TTL shortly after their window ends', async () => {
    const limiter = makeDynamoRateLimiter(db, host.config.tables.rateLimits, clock);
    await limiter.consume('ten_ttl', 'other', 'free');
    const { Item } = await db.send(
      new GetCommand({
        TableName: host.config.tables.rateLimits,
        Key: { pk: `ten_ttl#other#${windowAt(clock.now()).startMs}` },
      }),
    );
    const windowEndSeconds = windowAt(clock.now()).endMs / 1000;
    expect(Item?.expiresAt).toBeGreaterThan(windowEndSeconds);
    expect(Item?.expiresAt).toBeLessThanOrEqual(windowEndSeconds + 300);
  });
});
