import middy from '@middy/core';
import { MethodNotAllowedError } from '../../domain/errors.js';
import { requestTraceOf } from '../../domain/trace-header.js';
import { headerOf } from '../../http/content-type.js';
import { bodyText } from '../../http/json-body.js';
import { bodySizeLimit } from '../../http/middlewares/body-size-limit.js';
import { errorEnvelope } from '../../http/middlewares/error-envelope.js';
import { requestLog } from '../../http/middlewares/request-log.js';
import { responseHeaders } from '../../http/middlewares/response-headers.js';
import type { ApiHandler } from '../../http/operation-handler.js';
import type { ApiContext, ApiEvent, ApiResult } from '../../http/request-state.js';
import { loadOnce } from '../../runtime/load-once.js';
import type { Observability } from '../../runtime/make-core-deps.js';
import { authenticateOrChallenge } from '../authenticate-or-challenge.js';
import { catalogAnswer, plainToolCall } from './catalog-answer.js';
import { type LoadTool, makeLoadedTools } from './loaded-tools.js';
import type { McpCatalog } from './mcp-catalog.js';
import type { McpDeps } from './mcp-deps.js';

export interface CatalogFirstOptions {
  catalog: McpCatalog;
  /** Powertools' logger and metrics: light, and the middlewares need them from the start. */
  observability: Observability;
  /** DynamoDB and the rest (mcp-deps.ts), loaded once, by the first request or at cold start. */
  loadDeps: () => Promise<McpDeps>;
  /** The module of the tool of that name (one chunk per operation), or undefined for no such tool. */
  loadTool: LoadTool;
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The MCP transport at `{base_url}/mcp` (HTTP API route and Function URL alike): stateless
 * Streamable HTTP with JSON responses, POST only. The bearer key is checked before the MCP message
 * is read (401 otherwise); each tool call then runs the operation pipeline with that same key, so
 * plan, permissions, rate limits and isolation are REST's. It loads only what a request uses
 * (issue 32): `initialize`, `tools/list` and `ping` are answered from the catalog written at build
 * time; a plain `tools/call` loads that tool's module and runs it without the SDK's server;
 * anything else loads the SDK's server (its zod schemas and Ajv) and is answered by it.
 */
export function makeCatalogFirstMcpHandler(options: CatalogFirstOptions): ApiHandler {
  const { catalog, observability } = options;
  // Once per instance; a failed load (a missing setting, an import) is tried again by the next request.
  const loadDeps = loadOnce(() =>
    options.loadDeps().then((mcpDeps) => ({ mcpDeps, tools: makeLoadedTools(options.loadTool, mcpDeps) })),
  );

  const core = async (event: ApiEvent, context: ApiContext): Promise<ApiResult> => {
    const state = context.api;
    if (!state) throw new Error('responseHeaders did not run');
    const method = event.requestContext.http.method;
    if (method !== 'POST') throw new MethodNotAllowedError(method, ['POST']);
    const { mcpDeps, tools } = await loadDeps();
    const authorization = headerOf(event.headers, 'authorization');
    state.principal = await authenticateOrChallenge(mcpDeps.core.authenticator, authorization);
    const text = bodyText(event);
    const message = parsed(text);
    const answered = catalogAnswer(catalog, event, message);
    if (answered) return answered;
    const sdkOptions = {
      catalog,
      context: {
        requestId: state.requestId,
        authorization,
        logger: state.logger ?? observability.logger,
        trace: requestTraceOf(headerOf(event.headers, 'x-amzn-trace-id'), process.env),
      },
      tools,
      metrics: observability.metrics,
    };
    const call = plainToolCall(catalog, event, message);
    if (call) {
      const { answerToolCall } = await import('./tool-call-answer.js');
      const result = await answerToolCall(call, sdkOptions);
      if (result) return result;
    }
    const { answerWithSdk } = await import('./sdk-answer.js');
    return answerWithSdk(event, text, sdkOptions);
  };

  return middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(responseHeaders())
    .use(requestLog({ id: 'mcp' }, observability.logger, observability.metrics))
    .use(errorEnvelope(observability.logger))
    .use(bodySizeLimit())
    .handler(core);
}
