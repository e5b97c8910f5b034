import type { Context } from 'hono';
import { AppError } from '../domain/errors.js';
import { requestTraceOf } from '../domain/trace-header.js';
import { principalFor } from '../domain/user-access.js';
import type { Operation } from '../http/operation.js';
import { operationById } from '../operations/registry.js';
import { runOperation } from '../pipeline/run-operation.js';
import type { DashboardEnv } from './env.js';

export interface OperationInput {
  /** Path parameters by the operation's names (`workspace_id`, `post_id`). */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** Request headers by lower-case name (`idempotency-key`). */
  headers?: Record<string, string>;
  body?: unknown;
}

export type OperationOutcome<T> =
  | { ok: true; status: number; body: T }
  /** One of our errors, as the API would have answered it: the page shows its message. */
  | { ok: false; error: AppError };

/**
 * Runs an API operation as the signed-in user: the same pipeline as REST and MCP (plan,
 * permission, the tenant's rate limit, the workspace, validation, the handler), with the principal
 * the user's role stands for instead of a key. Anything but our errors is thrown on (a 500 page).
 * `T` is the operation's response body as the page reads it; the response schema already parsed it.
 * `operation` is a registered operation's id, or an unregistered variant of one that a page needs
 * (the dashboard's connect, which returns to the dashboard).
 */
export async function callOperation<T>(
  c: Context<DashboardEnv>,
  operation: string | Operation,
  input: OperationInput = {},
): Promise<OperationOutcome<T>> {
  const { signedIn, deps, requestId, logger } = c.var;
  try {
    const result = await runOperation(
      typeof operation === 'string' ? operationById(operation) : operation,
      deps.services,
      {
        requestId,
        authorization: undefined,
        identified: principalFor(signedIn.user, signedIn.tenant),
        params: input.params ?? {},
        query: input.query ?? {},
        headers: input.headers ?? {},
        readBody: () => input.body,
        logger,
        trace: requestTraceOf(c.req.header('x-amzn-trace-id'), process.env),
      },
    );
    return { ok: true, status: result.status, body: result.body as T };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error };
    throw error;
  }
}
