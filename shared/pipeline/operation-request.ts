import type { RateLimitDecision } from '../domain/rate-limit-policy.js';
import type { Principal } from '../domain/tenancy.js';
import type { Logger } from '../ports/logger.js';

/**
 * One call of an operation as any transport hands it over (REST through API Gateway, an MCP tool
 * call): nothing here is a Lambda event or an HTTP message.
 */
export interface OperationRequest {
  /** Ours (X-Request-Id): every log line and error answer carries it. */
  requestId: string;
  /** The `Authorization` header's value: `Bearer smcp_…`. */
  authorization: string | undefined;
  /**
   * A caller the transport identified itself, instead of an API key: the dashboard's signed-in
   * user, as the principal their role stands for (shared/domain/user-access.ts). The plan, the
   * permission, the rate limit and the workspace are still checked as for a key.
   */
  identified?: Principal;
  /** Path parameters by the names in the operation's path (`workspace_id`). */
  params: Readonly<Record<string, unknown>>;
  query: Readonly<Record<string, unknown>>;
  /** Request headers by lower-case name; only those the operation's schema names are read. */
  headers: Readonly<Record<string, unknown>>;
  /**
   * The body as a JSON value, undefined when there is none. Called only for an operation that
   * takes a body, and only once the caller is known: a transport that carries bytes throws our
   * 415 or 400 from here, so a bad key is still a 401 whatever the body.
   */
  readBody(): unknown;
  /**
   * For an operation that takes no body: whether the request carries one other than nothing or
   * `{}`, whatever its type (such an operation refuses it, 400, without reading it as JSON). A
   * transport that carries bytes says so here; without it, readBody()'s value is looked at.
   */
  carriesBody?(): boolean;
  /**
   * Input the transport received but could not place (an MCP argument the tool does not have),
   * by the name the caller used: reported with the schema's failures, in the same 400. Where that
   * name is also a field the schemas name (an argument `post_id` where the tool takes `postId`), its
   * messages come first under the name, then the schema's.
   */
  unplaced?: Readonly<Record<string, string[]>>;
  /** Carries the invocation's ids; the pipeline adds the tenant and workspace once it knows them. */
  logger: Logger;
  /**
   * The request's X-Ray trace header, validated (requestTraceOf in
   * shared/domain/trace-header.ts): posts the call writes carry it to the worker.
   */
  trace?: string;
}

/** A successful call: the operation's status, its body (parsed by its response schema), extra headers. */
export interface OperationResult {
  status: number;
  body: unknown;
  headers: Readonly<Record<string, string>>;
}

/**
 * What the pipeline has learned so far, filled in step by step, so that a transport can still
 * use it when a later step fails: the request log's tenant and workspace, the rate-limit headers.
 */
export interface PipelineProgress {
  principal?: Principal;
  rateLimit?: RateLimitDecision;
  workspaceId?: string;
}

/** The tenant and workspace a call is about, as far as the pipeline got. */
export function callerIds(progress: PipelineProgress): { tenantId?: string; workspaceId?: string } {
  return {
    ...(progress.principal && { tenantId: progress.principal.tenant.tenantId }),
    ...(progress.workspaceId && { workspaceId: progress.workspaceId }),
  };
}
