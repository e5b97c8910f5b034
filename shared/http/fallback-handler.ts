import middy from '@middy/core';
import { MethodNotAllowedError, NotFoundError } from '../domain/errors.js';
import { errorEnvelope } from './middlewares/error-envelope.js';
import { responseHeaders } from './middlewares/response-headers.js';
import type { Operation } from './operation.js';
import type { ApiContext, ApiEvent, ApiResult } from './request-state.js';
import { makeRouteMatcher } from './route-matcher.js';

/**
 * What answers a request no operation claims (API Gateway's `$default` route, the local host's
 * unmatched paths): 405 with `Allow` when the path exists under another method, else 404.
 */
export function makeFallbackHandler(operations: readonly Operation[]) {
  const match = makeRouteMatcher(operations);
  return middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(responseHeaders())
    .use(errorEnvelope())
    .handler(async (event) => {
      const method = event.requestContext.http.method;
      const result = match(method, event.rawPath);
      if (result.kind === 'wrong_method') throw new MethodNotAllowedError(method, result.allowed);
      throw new NotFoundError(`No route for ${method} ${event.rawPath}.`);
    });
}
