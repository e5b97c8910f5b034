import middy from '@middy/core';
import type { ServiceDeps } from '../runtime/deps.js';
import { jsonResponse } from './json-response.js';
import { authenticate } from './middlewares/authenticate.js';
import { bodySizeLimit } from './middlewares/body-size-limit.js';
import { errorEnvelope } from './middlewares/error-envelope.js';
import { rateLimit } from './middlewares/rate-limit.js';
import { requestLog } from './middlewares/request-log.js';
import { resolveWorkspace } from './middlewares/resolve-workspace.js';
import { responseHeaders } from './middlewares/response-headers.js';
import { validateInput } from './middlewares/validate-input.js';
import { type Operation, type OperationContext, Reply } from './operation.js';
import { type ApiContext, type ApiEvent, type ApiResult, callerIds } from './request-state.js';

export type ApiHandler = (event: ApiEvent, context: ApiContext) => Promise<ApiResult>;

/**
 * The one middleware stack every operation runs in, in this order:
 * headers (request id, rate-limit headers) → request log → error envelope → 413 → auth, plan and permission →
 * rate limit → workspace visibility → JSON parsing and schema validation → the operation.
 * The response is parsed by the operation's response schema, which also drops any field the
 * schema does not name, so internal attributes can never leak into an answer.
 */
export function makeOperationHandler(operation: Operation, deps: ServiceDeps): ApiHandler {
  const core = async (_event: ApiEvent, context: ApiContext): Promise<ApiResult> => {
    const state = context.api;
    if (!state?.input) throw new Error('validateInput did not run');
    const ctx = {
      requestId: state.requestId,
      deps,
      logger: (state.logger ?? deps.logger).with(callerIds(state)),
      principal: state.principal,
      workspaceId: state.workspaceId,
    } as OperationContext; // principal/workspaceId are present for the operations that declare them
    const result = await operation.handler(ctx, {
      params: state.input.params,
      query: state.input.query,
      body: state.input.body,
      headers: state.input.headers,
    });
    const reply = result instanceof Reply ? result : new Reply(result);
    const body = operation.schemas.response.parse(reply.body);
    return jsonResponse(reply.status ?? operation.successStatus, body, reply.headers);
  };

  const stack = middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(responseHeaders())
    .use(requestLog(operation, deps.logger, deps.metrics))
    .use(errorEnvelope(deps.logger))
    .use(bodySizeLimit());
  if (operation.auth === 'apiKey') {
    stack
      .use(authenticate(operation, deps.authenticator))
      .use(rateLimit(operation, deps.rateLimiter))
      .use(resolveWorkspace(operation, deps.tenancy));
  }
  return stack.use(validateInput(operation)).handler(core);
}
