import type { z } from 'zod';
import type { ErrorCode } from '../domain/errors.js';
import type { Permission } from '../domain/permissions.js';
import type { RateLimitFamily } from '../domain/rate-limit-policy.js';
import type { Principal } from '../domain/tenancy.js';
import type { Logger } from '../ports/logger.js';
import type { ServiceDeps } from '../runtime/deps.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Where an operation's workspace comes from:
 * - `path`: the `{workspace_id}` path parameter;
 * - `implicit`: a workspace-less short form; the query parameter `workspaceId`, or the caller's
 *   only workspace, else 403 workspace_required;
 * - `none`: the operation is not about one workspace.
 */
export type WorkspaceSource = 'path' | 'implicit' | 'none';

/**
 * What an operation's Lambda touches beyond what every key-authenticated operation does (the main
 * and rate-limits tables), so the stack grants each function exactly that:
 * - `idempotency-table`: read and write idempotency records;
 * - `media-upload`: sign uploads into the media bucket (s3:PutObject under the tenant prefix);
 * - `media-read`: read media objects' metadata (HeadObject needs s3:GetObject);
 * - `media-delete`: delete media objects;
 * - `secrets-encrypt`: encrypt a webhook's signing secret with the secrets KMS key (kms:Encrypt
 *   only, for the `webhook-signing-secret` purpose; never Decrypt, which only the dispatcher has).
 * - `network-apps`: read the networks' app credentials (Secrets Manager, one secret per app);
 * - `oauth-tokens-encrypt`: encrypt an account's tokens (kms:Encrypt, purpose `oauth-token`);
 * - `oauth-tokens-decrypt`: decrypt them (kms:Decrypt, purpose `oauth-token`), to revoke at the network.
 */
export type OperationResource =
  | 'idempotency-table'
  | 'media-upload'
  | 'media-read'
  | 'media-delete'
  | 'secrets-encrypt'
  | 'network-apps'
  | 'oauth-tokens-encrypt'
  | 'oauth-tokens-decrypt';

export interface OperationEffects {
  /** Changes nothing although its method is not GET (a check that writes nothing). */
  readOnly?: boolean;
  /** Ends or refuses something for good (cancel, reject). */
  destructive?: boolean;
  /** Calling it again with the same input changes nothing more. */
  idempotent?: boolean;
  /** Reaches outside the service: a social network, a webhook receiver, a media URL. */
  reachesNetwork?: boolean;
}

/** What a handler is given besides its validated input. */
export interface OperationContext {
  requestId: string;
  deps: ServiceDeps;
  /** The request's logger: every line carries its request, tenant and workspace ids. */
  logger: Logger;
  /** Present on every operation with `auth: 'apiKey'`. */
  principal: Principal;
  /** Present when `workspace` is `path` or `implicit`: a workspace the caller may see. */
  workspaceId: string;
}

/** A handler's answer when it needs another status or extra headers than the operation's default. */
export class Reply<T> {
  constructor(
    readonly body: T,
    readonly status?: number,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** Another answer than the success status that a handler gives through Reply, for the OpenAPI document. */
export interface OtherResponse {
  description: string;
  /** Response headers it carries, by name → what they hold. */
  headers?: Readonly<Record<string, string>>;
  /** Whether it has a body, of the operation's `nonJson.mediaType`. */
  hasBody: boolean;
}

/**
 * For an operation a browser lands on (the OAuth callback): its answers are not JSON. The success
 * body is of `mediaType` and the response schema is a string, sent as is; `otherStatuses` are the
 * answers its handler gives besides the success status (a redirect, a page that reports a failure).
 * Errors thrown still answer the JSON envelope.
 */
export interface NonJsonResponses {
  mediaType: 'text/html';
  otherStatuses: Readonly<Record<number, OtherResponse>>;
}

type AnyObjectSchema = z.ZodObject<z.ZodRawShape>;

export interface OperationSchemas<
  P extends AnyObjectSchema,
  Q extends AnyObjectSchema,
  B extends z.ZodType,
  R extends z.ZodType,
> {
  params: P;
  query: Q;
  /** Absent: the operation takes no body (nothing or `{}`; any other body is 400 INVALID_REQUEST). */
  body?: B;
  /** Request headers the operation reads, by lower-case name (e.g. `idempotency-key`). */
  headers?: AnyObjectSchema;
  response: R;
}

export interface OperationInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The headers the operation's schema names, validated; empty when it names none. */
  headers: Readonly<Record<string, unknown>>;
}

export interface Operation<
  P extends AnyObjectSchema = AnyObjectSchema,
  Q extends AnyObjectSchema = AnyObjectSchema,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  /** camelCase, unique; also the MCP tool name and the OpenAPI operationId. */
  id: string;
  method: HttpMethod;
  /** API Gateway / OpenAPI syntax: `/v1/workspaces/{workspace_id}/accounts`. */
  path: string;
  summary: string;
  description: string;
  /**
   * The MCP tool's description, when `description` speaks of HTTP (headers, methods, paths) that a
   * tool's caller never sees: the same facts in the tool's terms (its arguments, other tools, `_meta`).
   */
  toolDescription?: string;
  tag: string;
  auth: 'apiKey' | 'none';
  /** Required grant; absent when any valid key of the tenant may call it. */
  permission?: Permission;
  rateLimitFamily: RateLimitFamily;
  workspace: WorkspaceSource;
  /** Resources beyond the main and rate-limits tables; none when absent. */
  resources?: readonly OperationResource[];
  successStatus: 200 | 201 | 202 | 204;
  /** What the success answer holds or means: the OpenAPI description of `successStatus`. */
  successDescription?: string;
  /** Absent: every answer is JSON. */
  nonJson?: NonJsonResponses;
  /**
   * The error codes the handler itself may answer (not_found, conflict, VALIDATION_FAILED…). Those
   * the middleware stack adds (auth, rate limit, workspace, body and schema checks) and those any
   * operation may answer (service_unavailable, internal_error) are derived, see operation-errors.ts.
   * The OpenAPI document lists both.
   */
  errors?: readonly ErrorCode[];
  /**
   * What the call does beyond what its method says, for MCP's tool annotations. Without it a GET
   * is read-only and idempotent, a DELETE destructive and idempotent, anything else neither.
   */
  effects?: OperationEffects;
  schemas: OperationSchemas<P, Q, B, R>;
  // Method syntax on purpose: it lets one registry list operations of different input types.
  handler(
    ctx: OperationContext,
    input: OperationInput<z.output<P>, z.output<Q>, z.output<B>>,
  ): Promise<z.input<R> | Reply<z.input<R>>>;
}

/** Identity at runtime; gives the handler its input and output types from the schemas. */
export function defineOperation<
  P extends AnyObjectSchema,
  Q extends AnyObjectSchema,
  B extends z.ZodType,
  R extends z.ZodType,
>(operation: Operation<P, Q, B, R>): Operation<P, Q, B, R> {
  return operation;
}
