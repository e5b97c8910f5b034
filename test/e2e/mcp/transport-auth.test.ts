import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { expectEnvelope } from '../../support/envelope.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';
import { connectMcp, mcpClient, mcpUrl } from './support.js';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'raw-probe', version: '1.0.0' },
  },
};

/** A raw POST of one JSON-RPC message, as any MCP client sends it. */
const post = (host: TestHost, message: unknown, authorization?: string) =>
  fetch(mcpUrl(host), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(authorization !== undefined && { Authorization: authorization }),
    },
    body: JSON.stringify(message),
  });

describe('the MCP endpoint over HTTP: key, methods', () => {
  let host: TestHost;
  let tenant: BootstrapResult;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Transport' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('with a valid key, a raw initialize is answered in JSON (the probe below is a real MCP message)', async () => {
    const response = await post(host, initialize, `Bearer ${tenant.apiKey}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await response.json()) as { id: number; result: { serverInfo: { name: string } } };
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(answer.result.serverInfo.name).toBe('social-publishing-api');
  });

  it.each([
    ['no Authorization header', undefined],
    ['an unknown key', `Bearer smcp_${'0'.repeat(64)}`],
    ['a malformed key', 'Bearer smcp_123'],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
  ])(
    '%s: HTTP 401 with WWW-Authenticate: Bearer and our envelope, no JSON-RPC answer',
    async (_case, authorization) => {
      const response = await post(host, initialize, authorization);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const body = await expectEnvelope(response, 401, 'unauthorized');
      expect(body).not.toHaveProperty('jsonrpc');
    },
  );

  it('a revoked key is refused the same way, even for a tools/call', async () => {
    const agent = await host.admin.createAgent(
      { role: 'owner' },
      { tenantId: tenant.tenantId, name: 'Soon revoked', fromWorkspaceId: tenant.workspaceId },
    );
    const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
    await host.admin.revokeApiKey({ tenantId: tenant.tenantId, keyId: key.record.keyId });
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'listWorkspaces', arguments: {} },
    };
    const response = await post(host, call, `Bearer ${key.plaintext}`);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectEnvelope(response, 401, 'unauthorized');
    expect(
      host.logs.some((entry) => entry.message === 'tool call' && entry.fields.tool === 'listWorkspaces'),
    ).toBe(false);
  });

  it.each([
    ['a bad key', `smcp_${'f'.repeat(64)}`],
    ['no key', undefined],
  ])("the SDK's own client cannot connect with %s", async (_case, apiKey) => {
    const { client, transport } = mcpClient(host, apiKey);
    const refusal = client.connect(transport);
    await expect(refusal).rejects.toBeInstanceOf(StreamableHTTPError);
    await expect(refusal).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(/unauthorized/),
    });
    await client.close();
  });

  it("the SDK's client connects with the right key and lists tools", async () => {
    const session = await connectMcp(host, tenant.apiKey);
    expect(session.tools.length).toBeGreaterThan(0);
    await session.close();
  });

  it.each(['GET', 'DELETE', 'PUT'])(
    '%s /mcp is 405 with Allow: POST, with or without a key',
    async (method) => {
      for (const authorization of [`Bearer ${tenant.apiKey}`, undefined]) {
        const response = await fetch(mcpUrl(host), {
          method,
          headers: {
            Accept: 'application/json, text/event-stream',
            ...(authorization && { Authorization: authorization }),
          },
        });
        expect(response.headers.get('allow')).toBe('POST');
        await expectEnvelope(response, 405, 'method_not_allowed');
      }
    },
  );
});
