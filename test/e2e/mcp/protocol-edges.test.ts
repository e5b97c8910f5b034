import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';
import { connectMcp, type McpSession, mcpUrl } from './support.js';

interface JsonRpcError {
  jsonrpc: '2.0';
  id: number | string | null;
  error: { code: number; message: string; data?: unknown };
}

/** A raw POST of a JSON body to /mcp, as any MCP client sends one. */
const post = (host: TestHost, apiKey: string, body: unknown) =>
  fetch(mcpUrl(host), {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${apiKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  });

const toolsCall = (id: number, params: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

/**
 * Issue 23, item 7: the protocol's edges. Malformed params are JSON-RPC -32602 with a message a
 * person can act on (never -32603 and a validation dump); a batch (removed from MCP in 2025-06-18)
 * is refused whole, so one request cannot ask for a hundred answers.
 */
describe('the MCP endpoint at the protocol’s edges', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let mcp: McpSession;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Edges' });
    mcp = await connectMcp(host, tenant.apiKey);
  });
  afterAll(async () => {
    await mcp.close();
    await host.stop();
  });

  describe('tools/call with malformed params: -32602 invalid params, naming the field', () => {
    it.each([
      ['arguments a string', { name: 'listWorkspaces', arguments: 'limit=5' }, 'params.arguments'],
      ['arguments null', { name: 'listWorkspaces', arguments: null }, 'params.arguments'],
      ['an array of arguments', { name: 'listWorkspaces', arguments: [1] }, 'params.arguments'],
      ['a name that is an object', { name: { tool: 'listWorkspaces' }, arguments: {} }, 'params.name'],
      ['no name', { arguments: {} }, 'params.name'],
      ['params a string', 'listWorkspaces', 'params'],
    ])('%s', async (_case, params, field) => {
      // Act
      const response = await post(host, tenant.apiKey, toolsCall(7, params));

      // Assess
      expect(response.status).toBe(200);
      const answer = (await response.json()) as JsonRpcError;
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: ErrorCode.InvalidParams } });
      expect(answer.error.message).toContain(`${field} `);
      // A sentence, not the validator's output.
      expect(answer.error.message).not.toMatch(/invalid_type|"path"|\[\s*\{/);
      expect(answer.error.message.length).toBeLessThan(300);
      expect(
        host.logs.some((entry) => entry.message === 'tool call' && entry.fields.tool === 'listWorkspaces'),
      ).toBe(false);
    });

    it('tools/list with a cursor that is not a string: -32602 too', async () => {
      const response = await post(host, tenant.apiKey, {
        jsonrpc: '2.0',
        id: 'l',
        method: 'tools/list',
        params: { cursor: 3 },
      });
      const answer = (await response.json()) as JsonRpcError;
      expect(answer).toMatchObject({ id: 'l', error: { code: ErrorCode.InvalidParams } });
      expect(answer.error.message).toContain('params.cursor ');
    });

    it("through the SDK's own client: an McpError with code -32602", async () => {
      // Act
      const refusal = mcp.client.request(
        { method: 'tools/call', params: { name: 'listWorkspaces', arguments: null } as never },
        CallToolResultSchema,
      );

      // Assess
      await expect(refusal).rejects.toBeInstanceOf(McpError);
      await expect(refusal).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('a well-formed call still runs', async () => {
      const call = await mcp.call('listWorkspaces', {});
      expect(call).toMatchObject({ isError: false, status: 200 });
    });
  });

  describe('a JSON-RPC batch (an array body)', () => {
    it('of 100 tools/list is refused whole: HTTP 400, one JSON-RPC -32600 error, a few hundred bytes', async () => {
      // Prepare
      const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));

      // Act
      const response = await post(host, tenant.apiKey, batch);

      // Assess
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await response.text();
      expect(text.length).toBeLessThan(1_000);
      const answer = JSON.parse(text) as JsonRpcError;
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest } });
      expect(answer.error.message).toMatch(/batch/i);
    });

    it('of one message is refused too; the same message alone is answered', async () => {
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      expect((await post(host, tenant.apiKey, [list])).status).toBe(400);
      const alone = await post(host, tenant.apiKey, list);
      expect(alone.status).toBe(200);
      expect(((await alone.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(
        0,
      );
    });

    it('of tool calls runs none of them', async () => {
      const calls = [
        toolsCall(1, { name: 'listWorkspaces', arguments: {} }),
        toolsCall(2, { name: 'listWorkspaces' }),
      ];
      const before = host.logs.length;
      expect((await post(host, tenant.apiKey, calls)).status).toBe(400);
      expect(host.logs.slice(before).some((entry) => entry.message === 'tool call')).toBe(false);
    });
  });
});
