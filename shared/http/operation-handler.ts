import middy from '@middy/core';
import { requestTraceOf } from '../domain/trace-header.js';
import type { OperationRequest } from '../pipeline/operation-request.js';
import { runOperation } from '../pipeline/run-operation.js';
import type { ServiceDeps } from '../runtime/deps.js';
import { headerOf } from './content-type.js';
import { carriesBody, readJsonBody } from './json-body.js';
import { jsonResponse } from './json-response.js';
import { bodySizeLimit } from './middlewares/body-size-limit.js';
import { errorEnvelope } from './middlewares/error-envelope.js';
import { requestLog } from './middlewares/request-log.js';
import { responseHeaders } from './middlewares/response-headers.js';
import type { Operation } from './operation.js';
import type { ApiContext, ApiEvent, ApiResult, RequestState } from './request-state.js';
import { textResponse } from './text-response.js';

export type ApiHandler = (event: ApiEvent, context: ApiContext) => Promise<ApiResult>;

/** The operation request an API Gateway event carries; its body is read only when the pipeline asks. */
function requestFromEvent(
  event: ApiEvent,
  state: RequestState,
  fallbackLogger: ServiceDeps['logger'],
): OperationRequest {
  return {
    requestId: state.requestId,
    authorization: headerOf(event.headers, 'authorization'),
    params: event.pathParameters ?? {},
    query: event.queryStringParameters ?? {},
    headers: event.headers ?? {},
    readBody: () => readJsonBody(event),
    carriesBody: () => carriesBody(event),
    logger: state.logger ?? fallbackLogger,
    trace: requestTraceOf(headerOf(event.headers, 'x-amzn-trace-id'), process.env),
  };
}

/**
 * The REST transport: a thin middy stack around the operation pipeline (shared/pipeline), in this
 * order: headers (request id, rate-limit headers) → request log → error envelope → 413 → the
 * pipeline (auth, plan and permission → rate limit → workspace → validation → the operation).
 */
export function makeOperationHandler(operation: Operation, deps: ServiceDeps): ApiHandler {
  const core = async (event: ApiEvent, context: ApiContext): Promise<ApiResult> => {
    const state = context.api;
    if (!state) throw new Error('responseHeaders did not run');
    const result = await runOperation(operation, deps, requestFromEvent(event, state, deps.logger), state);
    if (operation.nonJson)
      return textResponse(result.status, String(result.body), operation.nonJson.mediaType, result.headers);
    return jsonResponse(result.status, result.body, { ...result.headers });
  };

  return middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(responseHeaders())
    .use(requestLog(operation, deps.logger, deps.metrics))
    .use(errorEnvelope(deps.logger))
    .use(bodySizeLimit())
    .handler(core);
}
