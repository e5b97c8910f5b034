import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { toApiResult, toFetchRequest } from '../../http/fetch-bridge.js';
import type { ApiEvent, ApiResult } from '../../http/request-state.js';
import type { Metrics } from '../../ports/metrics.js';
import type { CallContext } from '../call-tool.js';
import { screenMessage } from '../json-rpc-screen.js';
import { makeServerFor } from '../mcp-server.js';
import type { LoadedTools } from './loaded-tools.js';
import type { McpCatalog } from './mcp-catalog.js';

export interface SdkAnswerOptions {
  catalog: McpCatalog;
  context: CallContext;
  tools: LoadedTools;
  metrics: Metrics;
}

/**
 * What the catalog does not answer, answered by the SDK: the screen (a batch, or params that do not
 * fit their method, answered before the SDK reads them), then a server and a stateless transport
 * for this one request (the SDK refuses to reuse a stateless transport, and nothing may outlive
 * the invocation).
 */
export async function answerWithSdk(
  event: ApiEvent,
  text: string | undefined,
  options: SdkAnswerOptions,
): Promise<ApiResult> {
  const screened = screenMessage(text);
  if (screened.kind === 'answer') return toApiResult(screened.response);
  const { catalog, context, tools, metrics } = options;
  const server = makeServerFor(
    catalog.tools,
    (name) => tools.find(name),
    context,
    async (tool) => tools.depsFor(tool),
    metrics,
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const parsedBody = 'parsedBody' in screened ? { parsedBody: screened.parsedBody } : undefined;
    return await toApiResult(await transport.handleRequest(toFetchRequest(event), parsedBody));
  } finally {
    await server.close();
  }
}
