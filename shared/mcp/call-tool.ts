import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asServiceUnavailable, outageSummary } from '../adapters/aws/dependency-outage.js';
import { AppError, INTERNAL_ERROR_ENVELOPE, toEnvelope, type ValidationDetails } from '../domain/errors.js';
import { unknownNameMessage } from '../http/closest-name.js';
import type { OperationRequest, PipelineProgress } from '../pipeline/operation-request.js';
import { callerIds } from '../pipeline/operation-request.js';
import { runOperation } from '../pipeline/run-operation.js';
import type { Logger } from '../ports/logger.js';
import type { Metrics } from '../ports/metrics.js';
import type { ServiceDeps } from '../runtime/deps.js';
import { type ArgumentPlan, splitArguments } from './tool-arguments.js';
import type { Tool } from './tool-catalog.js';
import { errorResult, successResult } from './tool-result.js';

/** What a call needs of a tool: its name, its operation and how its arguments map onto the request. */
export type CallableTool = Pick<Tool, 'name' | 'operation' | 'arguments'>;

/** What a tool call shares with the HTTP request that carried it. */
export interface CallContext {
  requestId: string;
  authorization: string | undefined;
  logger: Logger;
  /** The HTTP request's trace (requestTraceOf): posts a tool writes carry it to the worker. */
  trace?: string;
}

/**
 * The pipeline names fields as REST does (`post_id`, `idempotency-key`, a body field at the top);
 * a tool's caller knows them as arguments (`postId`, `idempotencyKey`, `body.content`). An unknown
 * argument is reported under the name the caller sent, whichever step answered; where that name is
 * also a REST name (an argument `post_id`), input validation put the unknown argument's messages
 * first under it (operation-request.ts, `unplaced`), and the rest are the REST field's, renamed.
 */
function detailsAsArguments(
  details: ValidationDetails,
  plan: ArgumentPlan,
  unplaced: ValidationDetails,
): ValidationDetails {
  const toArgument = new Map<string, string>();
  for (const [argument, name] of [...plan.params, ...plan.headers]) toArgument.set(name, argument);
  for (const name of plan.query.values()) toArgument.set(name, name);
  const renamed: ValidationDetails = {};
  const add = (field: string, messages: readonly string[]) => {
    if (messages.length > 0) renamed[field] = [...(renamed[field] ?? []), ...messages];
  };
  // Every unknown argument, even when a step before input validation (the workspace) answered.
  for (const [field, messages] of Object.entries(unplaced)) add(field, messages);
  for (const [field, all] of Object.entries(details)) {
    const own = unplaced[field] ?? [];
    const ownFirst = own.length > 0 && own.every((message, index) => all[index] === message);
    const messages = ownFirst ? all.slice(own.length) : all;
    const head = /^[^.[]+/.exec(field)?.[0] ?? field;
    const rest = field.slice(head.length);
    const argument = toArgument.get(head);
    const key =
      argument !== undefined
        ? `${argument}${rest}`
        : ['body', 'params', 'query', 'headers'].includes(head)
          ? field
          : `body.${field}`;
    add(key, messages);
  }
  return renamed;
}

/** Each argument the tool does not have, under the name sent, with the one it most likely meant. */
function unknownArgumentDetails(unknown: readonly string[], plan: ArgumentPlan): ValidationDetails {
  const taken = [
    ...plan.params.keys(),
    ...plan.query.keys(),
    ...plan.headers.keys(),
    ...(plan.body ? [plan.body] : []),
  ];
  return Object.fromEntries(unknown.map((name) => [name, [unknownNameMessage('argument', name, taken)]]));
}

/**
 * One tool call: the arguments become the operation's request, and the same pipeline as REST runs
 * it (key, plan, permission, the tenant's rate-limit bucket, workspace, validation, the handler).
 * Every failure is a tool result with `isError`, never a protocol error: the agent reads our
 * envelope and decides, as a REST caller would.
 */
export async function callTool(
  tool: CallableTool,
  args: Readonly<Record<string, unknown>>,
  context: CallContext,
  deps: ServiceDeps,
  metrics: Metrics,
): Promise<CallToolResult> {
  const startedAt = performance.now();
  const progress: PipelineProgress = {};
  const logger = context.logger.with({ tool: tool.name });
  const parts = splitArguments(tool.arguments, args);
  const unplaced = unknownArgumentDetails(parts.unknown, tool.arguments);
  const request: OperationRequest = {
    requestId: context.requestId,
    authorization: context.authorization,
    params: parts.params,
    query: parts.query,
    headers: parts.headers,
    readBody: () => parts.body,
    // Checked with the rest of the input, after the key, plan, permission and rate limit, as REST does.
    ...(parts.unknown.length > 0 && { unplaced }),
    logger,
    ...(context.trace && { trace: context.trace }),
  };
  const finish = (result: CallToolResult, status: number) => {
    const fields = { status, durationMs: Math.round(performance.now() - startedAt) };
    const line = logger.with(callerIds(progress));
    if (status === 503) line.warn('tool call unavailable', fields);
    else if (status >= 500) line.error('tool call failed', fields);
    else line.info('tool call', fields);
    if (status === 429) metrics.count('RateLimitedRequests', { family: tool.operation.rateLimitFamily });
    return result;
  };
  try {
    const result = await runOperation(tool.operation, deps, request, progress);
    return finish(successResult(result, progress.rateLimit), result.status);
  } catch (error) {
    if (error instanceof AppError) {
      const envelope = toEnvelope(error);
      if (envelope.details) envelope.details = detailsAsArguments(envelope.details, tool.arguments, unplaced);
      return finish(errorResult(error.status, envelope, error.headers, progress.rateLimit), error.status);
    }
    const outage = asServiceUnavailable(error);
    if (outage) {
      logger.with(callerIds(progress)).warn('dependency unavailable', outageSummary(error));
      return finish(
        errorResult(outage.status, toEnvelope(outage), outage.headers, progress.rateLimit),
        outage.status,
      );
    }
    logger.with(callerIds(progress)).error('unexpected error', { error });
    return finish(errorResult(500, INTERNAL_ERROR_ENVELOPE, {}, progress.rateLimit), 500);
  }
}
