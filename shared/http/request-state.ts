import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RateLimitDecision } from '../domain/rate-limit-policy.js';
import type { Principal } from '../domain/tenancy.js';
import type { Logger } from '../ports/logger.js';
import { requestIdFrom } from './request-id.js';

/** What the middlewares learn about one request, in the order they learn it. */
export interface RequestState {
  requestId: string;
  /** performance.now() when the request reached the stack. */
  startedAt?: number;
  /** Carries the request's ids; set by requestLog. */
  logger?: Logger;
  principal?: Principal;
  rateLimit?: RateLimitDecision;
  workspaceId?: string;
  /** The body after JSON parsing (before schema validation). */
  parsedBody?: unknown;
  input?: {
    params: Record<string, unknown>;
    query: Record<string, unknown>;
    body: unknown;
    headers: Record<string, unknown>;
  };
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

/** The tenant and workspace a request is about, once authentication and workspace resolution know them. */
export function callerIds(state: RequestState): { tenantId?: string; workspaceId?: string } {
  return {
    ...(state.principal && { tenantId: state.principal.tenant.tenantId }),
    ...(state.workspaceId && { workspaceId: state.workspaceId }),
  };
}
