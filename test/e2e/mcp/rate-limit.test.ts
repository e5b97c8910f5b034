import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitFor, windowAt } from '../../../shared/domain/rate-limit-policy.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { seedMedia } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';
import { connectMcp, type McpSession, restClient } from './support.js';

// 20 s into a minute: the window cannot roll over under the test, whatever the wall clock says.
// In the future: DynamoDB Local deletes items whose TTL is past by the wall clock, counters included.
const START = Date.UTC(2099, 0, 1, 12, 0, 20);

describe('MCP tool calls share the tenant’s rate-limit buckets with REST', () => {
  const clock = fixedClock(START);
  let host: TestHost;
  let tenant: BootstrapResult;
  let mcp: McpSession;

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Busy' });
    mcp = await connectMcp(host, tenant.apiKey);
  });
  afterAll(async () => {
    await mcp.close();
    await host.stop();
  });

  it('alternating REST and MCP calls drain one bucket: both doors see the same count and refuse at the same call', async () => {
    // Prepare: confirming an uploaded media again costs a media_uploads token and changes nothing.
    const family = 'media_uploads';
    const limit = limitFor(family, 'free');
    const mediaId = await seedMedia(host, tenant, 'image/png');
    const rest = restClient(host, tenant.apiKey);
    const viaRest = () => rest('POST', `/v1/workspaces/${tenant.workspaceId}/media/${mediaId}/confirm`);
    const viaMcp = () => mcp.call('confirmMedia', { workspaceId: tenant.workspaceId, mediaId });

    // Act: limit calls, every other one through MCP, then one more through each door.
    const remaining: number[] = [];
    for (let index = 0; index < limit; index += 1) {
      if (index % 2 === 0) {
        const answer = await viaRest();
        expect(answer.status).toBe(200);
        remaining.push(Number(answer.headers.get('x-ratelimit-remaining')));
      } else {
        const call = await viaMcp();
        expect(call).toMatchObject({ isError: false, status: 200, body: { mediaId, status: 'uploaded' } });
        remaining.push((call.meta.rateLimit as { remaining: number }).remaining);
      }
    }
    const restRefused = await viaRest();
    const mcpRefused = await viaMcp();

    // Assess: connecting and listing tools took nothing; each call, whichever door, took one.
    expect(remaining).toEqual(Array.from({ length: limit }, (_, index) => limit - 1 - index));
    expect(restRefused.status).toBe(429);
    expect(restRefused.body?.error).toBe('rate_limited');
    const reset = windowAt(clock.now()).endMs / 1000;
    expect(mcpRefused).toMatchObject({
      isError: true,
      status: 429,
      body: { error: 'rate_limited', status: 429 },
      meta: {
        rateLimit: { limit, remaining: 0, reset },
        headers: { 'Retry-After': restRefused.headers.get('retry-after') },
      },
    });
    expect(host.metricPoints).toContainEqual(
      expect.objectContaining({ name: 'RateLimitedRequests', dimensions: { family } }),
    );
    // Another family of the same tenant is untouched, through MCP too.
    expect(await mcp.call('listAccounts', { workspaceId: tenant.workspaceId })).toMatchObject({
      isError: false,
      status: 200,
    });

    // The next window serves both doors again.
    clock.advance(60_000);
    expect((await viaMcp()).meta.rateLimit).toMatchObject({ remaining: limit - 1 });
    expect((await viaRest()).headers.get('x-ratelimit-remaining')).toBe(String(limit - 2));
  });
});
