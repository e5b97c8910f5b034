import middy from '@middy/core';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { MethodNotAllowedError } from '../domain/errors.js';
import { headerOf } from '../http/content-type.js';
import { toApiResult, toFetchRequest } from '../http/fetch-bridge.js';
import { bodyText } from '../http/json-body.js';
import { bodySizeLimit } from '../http/middlewares/body-size-limit.js';
import { errorEnvelope } from '../http/middlewares/error-envelope.js';
import { requestLog } from '../http/middlewares/request-log.js';
import { responseHeaders } from '../http/middlewares/response-headers.js';
import type { Operation } from '../http/operation.js';
import type { ApiHandler } from '../http/operation-handler.js';
import type { ApiContext, ApiEvent, ApiResult } from '../http/request-state.js';
import type { ServiceDeps } from '../runtime/deps.js';
import { authenticateOrChallenge } from './authenticate-or-challenge.js';
import { screenMessage } from './json-rpc-screen.js';
import { makeMcpServer } from './mcp-server.js';
import { buildToolCatalog } from './tool-catalog.js';

/**
 * The MCP transport at `{base_url}/mcp` (HTTP API route and Function URL alike): stateless
 * Streamable HTTP with JSON responses, POST only. The bearer key is checked before the MCP message
 * is read (401 otherwise); each tool call then runs the operation pipeline with that same key, so
 * plan, permissions, rate limits and isolation are REST's. A new server and transport per request:
 * the SDK refuses to reuse a stateless transport, and nothing may outlive the invocation.
 */
export function makeMcpHandler(operations: readonly Operation[], deps: ServiceDeps): ApiHandler {
  const catalog = buildToolCatalog(operations);

  const core = async (event: ApiEvent, context: ApiContext): Promise<ApiResult> => {
    const state = context.api;
    if (!state) throw new Error('responseHeaders did not run');
    const method = event.requestContext.http.method;
    if (method !== 'POST') throw new MethodNotAllowedError(method, ['POST']);
    const authorization = headerOf(event.headers, 'authorization');
    state.principal = await authenticateOrChallenge(deps.authenticator, authorization);
    const callContext = {
      requestId: state.requestId,
      authorization,
      logger: state.logger ?? deps.logger,
    };
    // A batch, or params that do not fit their method, are answered before the SDK reads them.
    const screened = screenMessage(bodyText(event));
    if (screened.kind === 'answer') return toApiResult(screened.response);
    const server = makeMcpServer(catalog, callContext, deps, deps.metrics);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const parsed = 'parsedBody' in screened ? { parsedBody: screened.parsedBody } : undefined;
      return await toApiResult(await transport.handleRequest(toFetchRequest(event), parsed));
    } finally {
      await server.close();
    }
  };

  return middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(responseHeaders())
    .use(requestLog({ id: 'mcp' }, deps.logger, deps.metrics))
    .use(errorEnvelope(deps.logger))
    .use(bodySizeLimit())
    .handler(core);
}
