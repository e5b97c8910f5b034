import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asServiceUnavailable, outageSummary } from '../adapters/aws/dependency-outage.js';
import { AppError, INTERNAL_ERROR_ENVELOPE, toEnvelope, type ValidationDetails } from '../domain/errors.js';
import type { OperationRequest, PipelineProgress } from '../pipeline/operation-request.js';
import { callerIds } from '../pipeline/operation-request.js';
import { runOperation } from '../pipeline/run-operation.js';
import type { Logger } from '../ports/logger.js';
import type { Metrics } from '../ports/metrics.js';
import type { ServiceDeps } from '../runtime/deps.js';
import { type ArgumentPlan, splitArguments } from './tool-arguments.js';
import type { Tool } from './tool-catalog.js';
import { errorResult, successResult } from './tool-result.js';

/** What a tool call shares with the HTTP request that carried it. */
export interface CallContext {
  requestId: string;
  authorization: string | undefined;
  logger: Logger;
}

/**
 * The pipeline names fields as REST does (`post_id`, `idempotency-key`, a body field at the top);
 * a tool's caller knows them as arguments (`postId`, `idempotencyKey`, `body.content`).
 */
function detailsAsArguments(
  details: ValidationDetails,
  plan: ArgumentPlan,
  unknown: readonly string[],
): ValidationDetails {
  const toArgument = new Map<string, string>();
  for (const [argument, name] of [...plan.params, ...plan.headers]) toArgument.set(name, argument);
  for (const name of plan.query.values()) toArgument.set(name, name);
  const renamed: ValidationDetails = {};
  for (const [field, messages] of Object.entries(details)) {
    const head = /^[^.[]+/.exec(field)?.[0] ?? field;
    const rest = field.slice(head.length);
    const argument = toArgument.get(head);
    // An unknown argument is reported under the name the caller sent.
    const key = unknown.includes(field)
      ? field
      : argument !== undefined
        ? `${argument}${rest}`
        : ['body', 'params', 'query', 'headers'].includes(head)
          ? field
          : `body.${field}`;
    renamed[key] = messages;
  }
  return renamed;
}

function unknownArgumentDetails(unknown: readonly string[]): ValidationDetails {
  return Object.fromEntries(unknown.map((name) => [name, ['Unknown argument: this tool does not take it.']]));
}

/**
 * One tool call: the arguments become the operation's request, and the same pipeline as REST runs
 * it (key, plan, permission, the tenant's rate-limit bucket, workspace, validation, the handler).
 * Every failure is a tool result with `isError`, never a protocol error: the agent reads our
 * envelope and decides, as a REST caller would.
 */
export async function callTool(
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
  context: CallContext,
  deps: ServiceDeps,
  metrics: Metrics,
): Promise<CallToolResult> {
  const startedAt = performance.now();
  const progress: PipelineProgress = {};
  const logger = context.logger.with({ tool: tool.name });
  const parts = splitArguments(tool.arguments, args);
  const request: OperationRequest = {
    requestId: context.requestId,
    authorization: context.authorization,
    params: parts.params,
    query: parts.query,
    headers: parts.headers,
    readBody: () => parts.body,
    // Checked with the rest of the input, after the key, plan, permission and rate limit, as REST does.
    ...(parts.unknown.length > 0 && { unplaced: unknownArgumentDetails(parts.unknown) }),
    logger,
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
      if (envelope.details)
        envelope.details = detailsAsArguments(envelope.details, tool.arguments, parts.unknown);
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
