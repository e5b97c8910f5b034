import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { PipelineProgress } from '../pipeline/operation-request.js';
import type { Logger } from '../ports/logger.js';
import { requestIdFrom } from './request-id.js';

/**
 * What the middlewares learn about one request: its ids and start, and what the operation
 * pipeline learned (caller, rate-limit decision, workspace) for the log line and the headers.
 */
export interface RequestState extends PipelineProgress {
  requestId: string;
  /** performance.now() when the request reached the stack. */
  startedAt?: number;
  /** Carries the request's ids; set by requestLog. */
  logger?: Logger;
}

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;
export type ApiContext = Context & { api?: RequestState };
export type ApiRequest = Request<ApiEvent, ApiResult, Error, ApiContext>;
export type ApiMiddleware = MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>;

/** The request's state, created on first use (an error may skip the middleware that would make it). */
export function stateOf(request: ApiRequest): RequestState {
  if (!request.context.api) {
    request.context.api = { requestId: requestIdFrom(request.event.headers?.['x-request-id']) };
  }
  return request.context.api;
}
