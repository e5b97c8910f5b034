import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';
import { toApiResult, toFetchRequest } from '../../../shared/http/fetch-bridge.js';
import type { ApiEvent, ApiResult } from '../../../shared/http/request-state.js';
import { catalogAnswer, plainToolCall } from '../../../shared/mcp/catalog-first/catalog-answer.js';
import { buildMcpCatalog } from '../../../shared/mcp/catalog-first/mcp-catalog.js';
import { makeServerFor } from '../../../shared/mcp/mcp-server.js';
import { operations } from '../../../shared/operations/registry.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { noMetrics } from '../../../shared/ports/metrics.js';

const catalog = buildMcpCatalog(operations);

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function mcpEvent(message: unknown, headers: Record<string, string> = HEADERS): ApiEvent {
  return {
    version: '2.0',
    routeKey: 'ANY /mcp',
    rawPath: '/mcp',
    rawQueryString: '',
    headers: { host: 'api.example.com', ...headers },
    body: JSON.stringify(message),
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method: 'POST', path: '/mcp', protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: 'test-request',
      routeKey: 'ANY /mcp',
      stage: '$default',
      time: new Date(0).toUTCString(),
      timeEpoch: 0,
    },
    isBase64Encoded: false,
  };
}

/** What the SDK's server and transport answer, as answerWithSdk runs them (no tool is called here). */
async function sdkAnswer(event: ApiEvent): Promise<ApiResult> {
  const server = makeServerFor(
    catalog.tools,
    () => undefined,
    { requestId: 'test-request', authorization: undefined, logger: silentLogger },
    () => Promise.reject(new Error('no tool runs in this test')),
    noMetrics,
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await toApiResult(await transport.handleRequest(toFetchRequest(event)));
  } finally {
    await server.close();
  }
}

const initialize = (protocolVersion: string, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
});

const withBody = (result: ApiResult) => ({ ...result, body: result.body && JSON.parse(result.body) });

describe('the catalog-first answers (issue 32)', () => {
  it.each([
    ['initialize, a version the SDK supports', mcpEvent(initialize('2025-06-18'))],
    ['initialize, a version it does not (the latest is chosen)', mcpEvent(initialize('1999-01-01', 'a'))],
    ['notifications/initialized', mcpEvent({ jsonrpc: '2.0', method: 'notifications/initialized' })],
    ['ping', mcpEvent({ jsonrpc: '2.0', id: 2, method: 'ping' })],
    ['tools/list', mcpEvent({ jsonrpc: '2.0', id: 3, method: 'tools/list' })],
    [
      'tools/list with the version header',
      mcpEvent(
        { jsonrpc: '2.0', id: 'x', method: 'tools/list', params: {} },
        { ...HEADERS, 'mcp-protocol-version': '2025-06-18' },
      ),
    ],
  ])('%s: the answer the SDK gives', async (_case, event) => {
    // Act
    const fast = catalogAnswer(catalog, event, JSON.parse(event.body ?? ''));

    // Assess
    expect(fast).toBeDefined();
    expect(withBody(fast as ApiResult)).toEqual(withBody(await sdkAnswer(event)));
  });

  it.each([
    [
      'capabilities it does not check',
      mcpEvent({
        ...initialize('2025-06-18'),
        params: { ...initialize('2025-06-18').params, capabilities: { roots: 5 } },
      }),
    ],
    ['a cursor', mcpEvent({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 3 } })],
    [
      'an unknown version header',
      mcpEvent(
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { ...HEADERS, 'mcp-protocol-version': '1999-01-01' },
      ),
    ],
    [
      'no event-stream in Accept',
      mcpEvent({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { ...HEADERS, accept: 'application/json' }),
    ],
    ['a batch', mcpEvent([{ jsonrpc: '2.0', id: 3, method: 'tools/list' }])],
    ['a member JSON-RPC does not have', mcpEvent({ jsonrpc: '2.0', id: 3, method: 'tools/list', extra: 1 })],
    ['a fractional id', mcpEvent({ jsonrpc: '2.0', id: 1.5, method: 'ping' })],
    ['another method', mcpEvent({ jsonrpc: '2.0', id: 4, method: 'resources/list' })],
  ])('%s: left to the SDK', (_case, event) => {
    expect(catalogAnswer(catalog, event, JSON.parse(event.body ?? ''))).toBeUndefined();
  });

  it('takes a tools/call of a name and arguments (or none), and leaves anything else to the SDK', () => {
    const call = (params: unknown) => {
      const message = { jsonrpc: '2.0', id: 5, method: 'tools/call', params };
      return plainToolCall(catalog, mcpEvent(message), message);
    };
    expect(call({ name: 'listWorkspaces', arguments: { limit: 5 } })).toEqual({
      id: 5,
      name: 'listWorkspaces',
      arguments: { limit: 5 },
    });
    expect(call({ name: 'listWorkspaces' })).toEqual({ id: 5, name: 'listWorkspaces', arguments: {} });
    for (const params of [
      { name: 'listWorkspaces', arguments: null },
      { name: 'listWorkspaces', arguments: [1] },
      { name: { tool: 'listWorkspaces' } },
      { arguments: {} },
      { name: 'listWorkspaces', arguments: {}, _meta: { progressToken: 1 } },
      'listWorkspaces',
    ]) {
      expect(call(params), JSON.stringify(params)).toBeUndefined();
    }
  });
});
