import type { ApiResult } from '../../http/request-state.js';
import type { Metrics } from '../../ports/metrics.js';
import { type CallContext, callTool } from '../call-tool.js';
import type { LoadedTools } from './loaded-tools.js';

export interface ToolCallRequest {
  id: string | number;
  name: string;
  arguments: Readonly<Record<string, unknown>>;
}

export interface ToolCallOptions {
  context: CallContext;
  tools: LoadedTools;
  metrics: Metrics;
}

/**
 * A plain `tools/call` answered without the SDK's server (its zod schemas and Ajv): the tool's
 * module, then the pipeline, framed as the SDK frames a result. Undefined for a name that is no
 * tool, which the SDK answers (its error).
 */
export async function answerToolCall(
  request: ToolCallRequest,
  options: ToolCallOptions,
): Promise<ApiResult | undefined> {
  const tool = await options.tools.find(request.name);
  if (!tool) return undefined;
  const deps = options.tools.depsFor(tool);
  const result = await callTool(tool, request.arguments, options.context, deps, options.metrics);
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ result, jsonrpc: '2.0', id: request.id }),
  };
}
