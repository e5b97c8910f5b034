import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  type Tool as ListedTool,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { Metrics } from '../ports/metrics.js';
import type { ServiceDeps } from '../runtime/deps.js';
import { type CallableTool, type CallContext, callTool } from './call-tool.js';
import { listedAnnotations } from './tool-annotations.js';
import type { Tool } from './tool-catalog.js';

export const SERVER_INFO = { name: 'social-publishing-api', version: '1.0.0' };

export const INSTRUCTIONS =
  'Each tool is one REST operation of the social-publishing API, with the same API key, permissions, rate limits and errors. ' +
  'Start with listWorkspaces, then listAccounts for a workspace. Check a post with validatePost before createPost; ' +
  'pass idempotencyKey to createPost so a retry never posts twice. Delivery is asynchronous: poll getPost. ' +
  'A failed call returns isError with our error envelope (error, message, details, status). ' +
  'A schema part described as "Same as <tool>\'s <part>." is written out in full in that tool\'s schema; ' +
  'output schemas are summaries (each field with its type), described in full by the OpenAPI document at GET /v1/openapi.json.';

export function listed(tool: Tool): ListedTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema && { outputSchema: tool.outputSchema }),
    annotations: listedAnnotations(tool.annotations),
  };
}

/** What the server says it can do: tools only, a list that never changes. */
export const SERVER_CAPABILITIES = { tools: { listChanged: false } };

/** Finds a tool to call by name: from the whole catalog, or by loading only that tool's module. */
export type FindTool = (name: string) => CallableTool | undefined | Promise<CallableTool | undefined>;

/**
 * A new MCP server for one HTTP request (stateless: nothing survives the request). It has tools
 * only: `tools/list` shows the listed tools, `tools/call` finds one and runs it through the pipeline.
 */
export function makeServerFor(
  tools: readonly ListedTool[],
  findTool: FindTool,
  context: CallContext,
  depsFor: (tool: CallableTool) => Promise<ServiceDeps>,
  metrics: Metrics,
): Server {
  const server = new Server(SERVER_INFO, { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = await findTool(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, context, await depsFor(tool), metrics);
  });
  return server;
}
