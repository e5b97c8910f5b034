import '../shared/runtime/source-maps-on-error.js';
import { makeMcpHandler } from '../shared/mcp/mcp-handler.js';
import { operations } from '../shared/operations/registry.js';
import { loadConfig } from '../shared/runtime/config.js';
import { makeDeps } from '../shared/runtime/make-deps.js';

/**
 * The MCP server's Lambda, behind `ANY /mcp` on the HTTP API and its own Function URL (both send
 * payload format 2.0). Every operation of the registry is a tool, so it has every operation's config.
 */
export const handler = makeMcpHandler(operations, makeDeps(loadConfig()));
