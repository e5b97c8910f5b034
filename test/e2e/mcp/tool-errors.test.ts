import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { inOneHour, postsClient, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';
import { connectMcp, type McpSession, type RestAnswer, restClient, type ToolCall } from './support.js';

/** A failed tool call carries REST's envelope and status, unchanged. */
function expectSameFailure(call: ToolCall, answer: RestAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(call.isError).toBe(true);
  expect(call.status).toBe(status);
  expect(call.body).toEqual({ ...answer.body, status });
  expect(call.body?.error).toBe(code);
  expect(JSON.parse(call.text[0] ?? 'null')).toEqual(call.body);
}

/** An agent of the tenant, locked to its workspace, with only these permissions, and its key. */
async function agentKey(
  host: TestHost,
  tenant: BootstrapResult,
  permissions: ('posts:read' | 'accounts:read')[],
) {
  const agent = await host.admin.createAgent(
    { role: 'owner' },
    { tenantId: tenant.tenantId, name: 'Reader', fromWorkspaceId: tenant.workspaceId, permissions },
  );
  return (await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId })).plaintext;
}

describe('MCP tool errors: isolation, permissions, plan, arguments', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let other: BootstrapResult;
  let mcp: McpSession;
  let otherPostId: string;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Errors' });
    other = await host.admin.bootstrap({ name: 'Someone else' });
    mcp = await connectMcp(host, tenant.apiKey);
    const created = await postsClient(host, other).create(tweet(other, { status: 'draft' }));
    otherPostId = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await mcp.close();
    await host.stop();
  });

  describe('another tenant', () => {
    it("its workspace is not_found (404), as over REST, and the tool never reads the other tenant's post", async () => {
      const call = await mcp.call('getPost', { workspaceId: other.workspaceId, postId: otherPostId });
      const answer = await restClient(host, tenant.apiKey)(
        'GET',
        `/v1/workspaces/${other.workspaceId}/posts/${otherPostId}`,
      );
      expectSameFailure(call, answer, 404, 'not_found');
      expect(JSON.stringify(call.body)).not.toContain('draft');
    });

    it('its post id in my workspace is not_found (404), for a read and a write alike', async () => {
      const rest = restClient(host, tenant.apiKey);
      const path = `/v1/workspaces/${tenant.workspaceId}/posts/${otherPostId}`;
      const ids = { workspaceId: tenant.workspaceId, postId: otherPostId };
      expectSameFailure(await mcp.call('getPost', ids), await rest('GET', path), 404, 'not_found');
      expectSameFailure(await mcp.call('cancelPost', ids), await rest('DELETE', path), 404, 'not_found');
      // The other tenant's draft is untouched.
      const stillThere = await postsClient(host, other).get(otherPostId);
      expect(((await stillThere.json()) as { status: string }).status).toBe('draft');
    });

    it('its account id is not_found (404)', async () => {
      const accountId = other.accounts.twitter;
      const call = await mcp.call('getAccount', { workspaceId: tenant.workspaceId, accountId });
      const answer = await restClient(host, tenant.apiKey)(
        'GET',
        `/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`,
      );
      expectSameFailure(call, answer, 404, 'not_found');
    });
  });

  it('a permission the agent lacks is permission_denied (403); what it has works', async () => {
    const key = await agentKey(host, tenant, ['posts:read']);
    const reader = await connectMcp(host, key);
    const body = tweet(tenant, { status: 'scheduled', scheduledAt: inOneHour() });
    const call = await reader.call('createPost', { workspaceId: tenant.workspaceId, body });
    const answer = await restClient(host, key)('POST', `/v1/workspaces/${tenant.workspaceId}/posts`, body);
    expectSameFailure(call, answer, 403, 'permission_denied');
    expect(call.body?.message).toContain('posts:write');
    // An argument the tool does not have is input, checked after the permission, as REST checks input.
    const stray = await reader.call('createPost', { workspaceId: tenant.workspaceId, body, colour: 'red' });
    expect(stray).toMatchObject({ isError: true, status: 403, body: { error: 'permission_denied' } });
    const listed = await reader.call('listPosts', { workspaceId: tenant.workspaceId });
    expect(listed).toMatchObject({ isError: false, status: 200 });
    await reader.close();
  });

  it('an inactive plan is plan_inactive (403) on every tool call, as over REST', async () => {
    const lapsed = await host.admin.bootstrap({ name: 'Lapsed' });
    await host.admin.setPlan(lapsed.tenantId, { planStatus: 'inactive' });
    const session = await connectMcp(host, lapsed.apiKey);
    const rest = restClient(host, lapsed.apiKey);
    expectSameFailure(
      await session.call('listWorkspaces'),
      await rest('GET', '/v1/workspaces'),
      403,
      'plan_inactive',
    );
    expectSameFailure(
      await session.call('listAccounts', { workspaceId: lapsed.workspaceId }),
      await rest('GET', `/v1/workspaces/${lapsed.workspaceId}/accounts`),
      403,
      'plan_inactive',
    );
    await session.close();
  });

  describe('invalid arguments: INVALID_REQUEST (400) whose details name the tool argument', () => {
    const invalid = (call: ToolCall) => {
      expect(call).toMatchObject({
        isError: true,
        status: 400,
        body: { error: 'INVALID_REQUEST', status: 400 },
      });
      return call.body?.details as Record<string, string[]>;
    };

    it('an argument the tool does not have, named as sent; nothing is created', async () => {
      const before = await mcp.call('listPosts', { workspaceId: tenant.workspaceId, limit: 100 });
      const call = await mcp.call('createPost', {
        workspaceId: tenant.workspaceId,
        body: tweet(tenant, { status: 'draft' }),
        workspace_id: tenant.workspaceId,
        colour: 'blue',
      });
      expect(invalid(call)).toEqual({
        colour: ['Unknown argument `colour`; expected one of `workspaceId`, `idempotencyKey`, `body`.'],
        workspace_id: ['Unknown argument `workspace_id`; did you mean `workspaceId`?'],
      });
      const after = await mcp.call('listPosts', { workspaceId: tenant.workspaceId, limit: 100 });
      expect(after.body?.data).toEqual(before.body?.data);
    });

    it('a bad body field is body.<field>', async () => {
      const call = await mcp.call('createPost', {
        workspaceId: tenant.workspaceId,
        body: tweet(tenant, { platform: 'myspace' }),
      });
      expect(Object.keys(invalid(call))).toEqual(['body.platform']);
    });

    it('a nested bad body field keeps its path under body', async () => {
      const call = await mcp.call('createPost', {
        workspaceId: tenant.workspaceId,
        body: tweet(tenant, {
          content: [{ text: 'a', media: [{ url: 'http://example.com/a.png', type: 'image' }] }],
        }),
      });
      expect(Object.keys(invalid(call))).toEqual(['body.content[0].media[0].url']);
    });

    it('a bad postId is postId, a bad query parameter its own name, a bad header its camelCase name', async () => {
      const badPost = await mcp.call('getPost', { workspaceId: tenant.workspaceId, postId: 'not-a-post-id' });
      expect(Object.keys(invalid(badPost))).toEqual(['postId']);
      const badLimit = await mcp.call('listPosts', { workspaceId: tenant.workspaceId, limit: 1000 });
      expect(Object.keys(invalid(badLimit))).toEqual(['limit']);
      const badKey = await mcp.call('createPost', {
        workspaceId: tenant.workspaceId,
        idempotencyKey: 'spaces are not visible ASCII',
        body: tweet(tenant, { status: 'draft' }),
      });
      expect(Object.keys(invalid(badKey))).toEqual(['idempotencyKey']);
    });

    it('a missing body is body', async () => {
      const call = await mcp.call('createPost', { workspaceId: tenant.workspaceId });
      expect(Object.keys(invalid(call))).toEqual(['body']);
    });

    it('a misspelt argument names the one it meant; the argument left out is "Required"', async () => {
      const call = await mcp.call('getPost', { workspaceId: tenant.workspaceId, post_id: otherPostId });
      expect(invalid(call)).toEqual({
        post_id: ['Unknown argument `post_id`; did you mean `postId`?'],
        postId: ['Required'],
      });
      // The workspace is settled before the rest of the input, and the misspelling is still named.
      const noWorkspace = await mcp.call('listPosts', { workspace_id: tenant.workspaceId });
      expect(invalid(noWorkspace)).toEqual({
        workspace_id: ['Unknown argument `workspace_id`; did you mean `workspaceId`?'],
        workspaceId: ['Required'],
      });
    });

    it('an argument no valid one is close to lists what the tool takes', async () => {
      const call = await mcp.call('getPost', {
        workspaceId: tenant.workspaceId,
        postId: otherPostId,
        colour: 1,
      });
      expect(invalid(call)).toEqual({
        colour: ['Unknown argument `colour`; expected one of `workspaceId`, `postId`.'],
      });
    });

    it('a body field left out is "Required", a misspelt one names the field it meant, as over REST', async () => {
      const { content: _content, ...rest } = tweet(tenant, { status: 'draft' });
      const missing = await mcp.call('createPost', { workspaceId: tenant.workspaceId, body: rest });
      expect(invalid(missing)).toEqual({ 'body.content': ['Required'] });
      const misspelt = await mcp.call('createPost', {
        workspaceId: tenant.workspaceId,
        body: { ...rest, contnet: 'hello' },
      });
      expect(invalid(misspelt)).toEqual({
        body: ['Unknown field `contnet`; did you mean `content`?'],
        'body.content': ['Required'],
      });
    });
  });

  it.each([
    ['createPost', 'posts'],
    ['validatePost', 'posts/validate'],
  ])(
    '%s: an account the workspace does not have is not_found (404) naming it, as over REST',
    async (tool, path) => {
      for (const status of ['publish', 'draft']) {
        const body = tweet(tenant, { accountId: other.accounts.twitter, status });
        const call = await mcp.call(tool, { workspaceId: tenant.workspaceId, body });
        const answer = await restClient(host, tenant.apiKey)(
          'POST',
          `/v1/workspaces/${tenant.workspaceId}/${path}`,
          body,
        );
        expectSameFailure(call, answer, 404, 'not_found');
        expect(call.body?.message).toBe(`No account ${other.accounts.twitter} in this workspace.`);
      }
    },
  );

  it('an unknown tool is a protocol error, not a tool result', async () => {
    await expect(mcp.client.callTool({ name: 'dropTables', arguments: {} })).rejects.toBeInstanceOf(McpError);
  });

  it('each call is logged once as "tool call" with the tool, the tenant and the status', async () => {
    await mcp.call('getAccount', { workspaceId: tenant.workspaceId, accountId: tenant.accounts.tiktok });
    const lines = host.logs.filter(
      (entry) => entry.message === 'tool call' && entry.fields.tool === 'getAccount',
    );
    expect(lines.at(-1)?.fields).toMatchObject({ tenantId: tenant.tenantId, status: 200 });
    expect(lines.at(-1)?.fields.durationMs).toEqual(expect.any(Number));
    const refused = lines.filter((entry) => entry.fields.status === 404);
    expect(refused.at(-1)?.fields.tenantId).toBe(tenant.tenantId);
  });
});
