import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { operations } from '../../../shared/operations/registry.js';
import type { TestHost } from '../../support/test-host.js';

/** What one `tools/call` answered, in the terms the tests compare with a REST response. */
export interface ToolCall {
  isError: boolean;
  /** The HTTP status the same REST call answers (`_meta.status`). */
  status: number;
  /** The REST body on success, our envelope plus `status` on failure; absent for a 204. */
  body: Record<string, unknown> | undefined;
  meta: Record<string, unknown>;
  text: string[];
}

export interface McpSession {
  client: Client;
  /** The tools as `tools/list` showed them at connect time. */
  tools: Tool[];
  call(name: string, args?: Record<string, unknown>): Promise<ToolCall>;
  close(): Promise<void>;
}

export const mcpUrl = (host: TestHost) => new URL(`${host.baseUrl}/mcp`);

/** A client of the SDK's own, without connecting (to see `connect` fail). */
export function mcpClient(host: TestHost, apiKey: string | undefined) {
  const client = new Client({ name: 'e2e-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl(host), {
    requestInit: { headers: apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` } },
  });
  return { client, transport };
}

/**
 * Connects the SDK's client over real HTTP with this key, and lists the tools once: from then on
 * the SDK itself checks every result's structured content against the tool's outputSchema.
 */
export async function connectMcp(host: TestHost, apiKey: string): Promise<McpSession> {
  const { client, transport } = mcpClient(host, apiKey);
  await client.connect(transport);
  const { tools } = await client.listTools();
  return {
    client,
    tools,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const meta = (result._meta ?? {}) as Record<string, unknown>;
      const content = (result.content ?? []) as { type: string; text?: string }[];
      return {
        isError: result.isError === true,
        status: Number(meta.status),
        body: result.structuredContent as Record<string, unknown> | undefined,
        meta,
        text: content.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])),
      };
    },
    close: () => client.close(),
  };
}

/** One REST call's answer, read once. */
export interface RestAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

/** A REST client for one key, answering status and parsed body. */
export function restClient(host: TestHost, apiKey: string) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RestAnswer> => {
    const response = await host.call(path, {
      method,
      apiKey,
      headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
    };
  };
}

export type Rest = ReturnType<typeof restClient>;

/** The items of a list answer (`{data, nextCursor}`), through either door. */
export const itemsOf = (body: Record<string, unknown> | undefined) =>
  (body?.data ?? []) as Record<string, unknown>[];

/**
 * The operations the issue makes tools, read from the registry itself (not from the catalog under
 * test): every key-authenticated one but the workspace-less short forms.
 */
export const toolOperations = operations.filter(
  (operation) => operation.auth === 'apiKey' && operation.workspace !== 'implicit',
);

/**
 * The REST answer's structure, values aside: what a write through either door must share. An
 * array is the distinct shapes of its items (one attempt in a history or two: the same shape).
 */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) {
    const shapes = new Map(value.map((item) => [JSON.stringify(shapeOf(item)), shapeOf(item)]));
    return [...shapes.values()];
  }
  if (value === null) return null;
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, inner]) => [key, shapeOf(inner)]),
    );
  }
  return typeof value;
}
