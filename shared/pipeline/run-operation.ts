import { type Operation, type OperationContext, Reply } from '../http/operation.js';
import type { ServiceDeps } from '../runtime/deps.js';
import {
  callerIds,
  type OperationRequest,
  type OperationResult,
  type PipelineProgress,
} from './operation-request.js';
import { withRequestTrace } from './request-trace.js';
import { authenticateCaller } from './steps/authenticate-caller.js';
import { consumeRateLimit } from './steps/consume-rate-limit.js';
import { resolveWorkspace } from './steps/resolve-workspace.js';
import { validateInput } from './steps/validate-input.js';

/**
 * Runs one call of an operation, for every transport alike:
 * 1. authenticate the key, then check the plan's status and the operation's permission;
 * 2. take one token from the tenant's bucket for the operation's family;
 * 3. settle the workspace the call is about: a malformed id is 400, one the caller cannot see 404;
 * 4. validate params, query, headers and body against the operation's schemas;
 * 5. run the handler, and parse its answer with the response schema, which also drops any field
 *    the schema does not name, so internal attributes never leak.
 * Failures are thrown as our errors (AppError); the transport turns them into its own answer.
 * `progress` is filled in as the steps learn things, so the transport has them even on failure.
 */
export async function runOperation(
  operation: Operation,
  deps: ServiceDeps,
  request: OperationRequest,
  progress: PipelineProgress = {},
): Promise<OperationResult> {
  if (operation.auth === 'apiKey') {
    const principal = await authenticateCaller(
      operation,
      deps.authenticator,
      request.authorization,
      request.identified,
    );
    progress.principal = principal;
    await consumeRateLimit(operation, deps.rateLimiter, principal, (decision) => {
      progress.rateLimit = decision;
    });
    const workspaceId = await resolveWorkspace(operation, deps.tenancy, principal, request);
    if (workspaceId) progress.workspaceId = workspaceId;
  }
  const input = validateInput(operation, request);
  const ctx = {
    requestId: request.requestId,
    deps: withRequestTrace(deps, request.trace),
    logger: request.logger.with(callerIds(progress)),
    principal: progress.principal,
    workspaceId: progress.workspaceId,
  } as OperationContext; // principal/workspaceId are present for the operations that declare them
  const result = await operation.handler(ctx, input);
  const reply = result instanceof Reply ? result : new Reply(result);
  return {
    status: reply.status ?? operation.successStatus,
    body: operation.schemas.response.parse(reply.body),
    headers: reply.headers,
  };
}
