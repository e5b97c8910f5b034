import {
  LATEST_PROTOCOL_VERSION,
  type Tool as ListedTool,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../../http/operation.js';
import { INSTRUCTIONS, listed, SERVER_CAPABILITIES, SERVER_INFO } from '../mcp-server.js';
import { buildToolCatalog } from '../tool-catalog.js';

/**
 * Everything `initialize` and `tools/list` answer, as plain JSON written at build time
 * (infra/mcp-entry.ts): the MCP function answers them without the registry, zod or the SDK.
 */
export interface McpCatalog {
  serverInfo: typeof SERVER_INFO;
  capabilities: typeof SERVER_CAPABILITIES;
  instructions: string;
  /** The SDK's, so an `initialize` is answered with the version the SDK would choose. */
  protocolVersions: { supported: readonly string[]; latest: string };
  tools: ListedTool[];
}

/** Build time only: this module imports the registry's schemas and the SDK's types (zod). */
export function buildMcpCatalog(operations: readonly Operation[]): McpCatalog {
  return {
    serverInfo: SERVER_INFO,
    capabilities: SERVER_CAPABILITIES,
    instructions: INSTRUCTIONS,
    protocolVersions: { supported: [...SUPPORTED_PROTOCOL_VERSIONS], latest: LATEST_PROTOCOL_VERSION },
    tools: [...buildToolCatalog(operations).values()].map(listed),
  };
}
