import { headerOf } from '../../http/content-type.js';
import type { ApiEvent, ApiResult } from '../../http/request-state.js';
import type { McpCatalog } from './mcp-catalog.js';

type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const onlyKeys = (value: Json, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));

const isRequestId = (id: unknown) => typeof id === 'string' || Number.isSafeInteger(id);

/** What the SDK's client sends, and nothing it might refuse: anything else takes the SDK's path. */
function plainInitialize(params: unknown): params is { protocolVersion: string } {
  if (!isPlainObject(params) || !onlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo']))
    return false;
  const { protocolVersion, capabilities, clientInfo } = params;
  return (
    typeof protocolVersion === 'string' &&
    isPlainObject(capabilities) &&
    Object.keys(capabilities).length === 0 &&
    isPlainObject(clientInfo) &&
    onlyKeys(clientInfo, ['name', 'version']) &&
    typeof clientInfo.name === 'string' &&
    typeof clientInfo.version === 'string'
  );
}

const noParams = (params: unknown) =>
  params === undefined || (isPlainObject(params) && Object.keys(params).length === 0);

const json = (message: Json): ApiResult => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(message),
});

/** A JSON-RPC message the SDK's transport would take as it is (its headers and framing), or undefined. */
function plainMessage(catalog: McpCatalog, event: ApiEvent, message: unknown): Json | undefined {
  const accept = headerOf(event.headers, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (headerOf(event.headers, 'content-type') !== 'application/json') return undefined;
  if (!isPlainObject(message) || message.jsonrpc !== '2.0') return undefined;
  if (!onlyKeys(message, ['jsonrpc', 'id', 'method', 'params'])) return undefined;
  if (message.method === 'initialize') return message;
  // After initialize the transport checks the version header the client sends.
  const version = headerOf(event.headers, 'mcp-protocol-version');
  if (version !== undefined && !catalog.protocolVersions.supported.includes(version)) return undefined;
  return message;
}

/**
 * The answer to a plainly well-formed `initialize`, `notifications/initialized`, `ping` or
 * `tools/list`, from the catalog alone; undefined for anything else (another method, params the
 * SDK might refuse, headers its transport checks), which the SDK then answers as before. Each
 * answer is the one the SDK gives to the same message (catalog-answer.test.ts compares them).
 */
export function catalogAnswer(catalog: McpCatalog, event: ApiEvent, message: unknown): ApiResult | undefined {
  const plain = plainMessage(catalog, event, message);
  if (!plain) return undefined;
  const { id, method, params } = plain;
  if (method === 'initialize') {
    if (!isRequestId(id) || !plainInitialize(params)) return undefined;
    const { supported, latest } = catalog.protocolVersions;
    const protocolVersion = supported.includes(params.protocolVersion) ? params.protocolVersion : latest;
    const { capabilities, serverInfo, instructions } = catalog;
    return json({ result: { protocolVersion, capabilities, serverInfo, instructions }, jsonrpc: '2.0', id });
  }
  if (method === 'notifications/initialized' && id === undefined && noParams(params)) {
    return { statusCode: 202, headers: {} };
  }
  if (!isRequestId(id) || !noParams(params)) return undefined;
  if (method === 'ping') return json({ result: {}, jsonrpc: '2.0', id });
  if (method === 'tools/list') return json({ result: { tools: catalog.tools }, jsonrpc: '2.0', id });
  return undefined;
}

/** A `tools/call` of a name with arguments and nothing else (what agents send), or undefined. */
export function plainToolCall(
  catalog: McpCatalog,
  event: ApiEvent,
  message: unknown,
): { id: string | number; name: string; arguments: Json } | undefined {
  const plain = plainMessage(catalog, event, message);
  if (plain?.method !== 'tools/call' || !isRequestId(plain.id)) return undefined;
  const { params } = plain;
  if (!isPlainObject(params) || !onlyKeys(params, ['name', 'arguments'])) return undefined;
  // Absent is no arguments; null is refused by the SDK's screen (json-rpc-screen.ts), so it goes there.
  const args = params.arguments === undefined ? {} : params.arguments;
  if (typeof params.name !== 'string' || !isPlainObject(args)) return undefined;
  return { id: plain.id as string | number, name: params.name, arguments: args };
}
