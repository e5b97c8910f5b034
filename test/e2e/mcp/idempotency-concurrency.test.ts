import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { inOneHour, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';
import { connectMcp, itemsOf, type McpSession, restClient } from './support.js';

describe('MCP createPost: idempotency keys and parallel calls, as over REST', () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.stop();
  });

  /** A fresh tenant (so its posts are only this test's), its MCP session and REST client. */
  const freshTenant = async (name: string) => {
    const tenant: BootstrapResult = await host.admin.bootstrap({ name });
    const mcp: McpSession = await connectMcp(host, tenant.apiKey);
    const rest = restClient(host, tenant.apiKey);
    const postIds = async () => {
      const page = await rest('GET', `/v1/workspaces/${tenant.workspaceId}/posts?limit=100`);
      expect(page.status).toBe(200);
      return itemsOf(page.body)
        .map((post) => String(post.id))
        .sort();
    };
    return { tenant, mcp, rest, postIds };
  };

  it('the same key and body again is a replay (same post, one post in all); another body with it is 422 idempotency_key_reused', async () => {
    // Prepare
    const { tenant, mcp, rest, postIds } = await freshTenant('Idempotent');
    const body = tweet(tenant, { status: 'scheduled', scheduledAt: inOneHour(), content: 'Exactly once' });
    const args = { workspaceId: tenant.workspaceId, idempotencyKey: 'order-4711', body };

    // Act
    const first = await mcp.call('createPost', args);
    const again = await mcp.call('createPost', args);
    const overRest = await rest('POST', `/v1/workspaces/${tenant.workspaceId}/posts`, body, {
      'Idempotency-Key': 'order-4711',
    });
    const reused = await mcp.call('createPost', { ...args, body: { ...body, content: 'Something else' } });

    // Assess
    expect(first).toMatchObject({ isError: false, status: 201 });
    expect(first.meta.idempotentReplayed).toBeUndefined();
    expect(again).toMatchObject({ isError: false, status: 201, body: first.body });
    expect(again.meta.idempotentReplayed).toBe(true);
    expect(again.text.join('\n')).toMatch(/Replayed/);
    // One key space for both doors: REST replays the tool's first answer.
    expect(overRest.status).toBe(201);
    expect(overRest.headers.get('idempotent-replayed')).toBe('true');
    expect(overRest.body).toEqual(first.body);
    expect(reused).toMatchObject({
      isError: true,
      status: 422,
      body: { error: 'idempotency_key_reused', status: 422 },
    });
    expect(await postIds()).toEqual([first.body?.id]);
    await mcp.close();
  });

  it('ten createPost calls at once all succeed, with ten distinct posts that REST lists', async () => {
    // Prepare
    const { tenant, mcp, postIds } = await freshTenant('Parallel');

    // Act
    const calls = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        mcp.call('createPost', {
          workspaceId: tenant.workspaceId,
          body: tweet(tenant, { status: 'draft', content: `Parallel post ${index}` }),
        }),
      ),
    );

    // Assess
    for (const call of calls) expect(call).toMatchObject({ isError: false, status: 201 });
    const ids = calls.map((call) => String(call.body?.id)).sort();
    expect(new Set(ids).size).toBe(10);
    expect(await postIds()).toEqual(ids);
    // Each call took its own token: the ten remaining counts are distinct.
    const remaining = calls.map((call) => (call.meta.rateLimit as { remaining: number }).remaining);
    expect(new Set(remaining).size).toBe(10);
    await mcp.close();
  });
});
