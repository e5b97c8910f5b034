import type { ErrorCode, ErrorEnvelope, RuleViolation } from './types.js';

/**
 * A non-2xx answer with the service's error envelope. Branch on `code` (with `status`); `message`
 * is for people and may change.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode;
  /** INVALID_REQUEST: field path → messages. */
  readonly details: Readonly<Record<string, string[]>> | undefined;
  /** VALIDATION_FAILED: every rule the post breaks. */
  readonly errors: readonly RuleViolation[] | undefined;
  /** policy_violation: which workspace policy refused the post, and why. */
  readonly facet: ErrorEnvelope['facet'];
  readonly reason: string | undefined;
  /** permission_denied: the permission the key's agent lacks. */
  readonly required: string | undefined;
  /** workspace_required: the workspaces to choose from. */
  readonly availableWorkspaces: readonly string[] | undefined;
  /** rate_limited: whole seconds to wait (the Retry-After header). */
  readonly retryAfter: number | undefined;
  /** X-Request-Id: quote it when asking about this request. */
  readonly requestId: string | undefined;
  /** The envelope as received, members the named fields do not cover included. */
  readonly body: ErrorEnvelope;

  constructor(status: number, body: ErrorEnvelope & { error: ErrorCode }, headers: Headers) {
    super(body.message);
    this.status = status;
    this.code = body.error;
    this.details = body.details;
    this.errors = body.errors;
    this.facet = body.facet;
    this.reason = body.reason;
    this.required = body.required;
    this.availableWorkspaces = body.available_workspaces;
    this.retryAfter = retryAfterSeconds(headers);
    this.requestId = headers.get('x-request-id') ?? undefined;
    this.body = body;
  }
}

/** A non-2xx answer that is not the service's envelope (a proxy's page, an empty 502). */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  constructor(
    readonly status: number,
    readonly bodyText: string,
    readonly requestId: string | undefined,
  ) {
    super(`HTTP ${status} without the service's error envelope.`);
  }
}

/** No answer: the connection failed, or every attempt timed out (`timedOut`). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** waitForPost: the post was still not settled when the wait ran out. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    readonly postId: string,
    readonly lastStatus: string,
  ) {
    super(`Post ${postId} is still ${lastStatus}; it did not settle in the time allowed.`);
  }
}

/** The code's type is the document's; the runtime check is the envelope's shape only. */
function isErrorEnvelope(value: unknown): value is ErrorEnvelope & { error: ErrorCode } {
  if (typeof value !== 'object' || value === null) return false;
  const { error, message } = value as Record<string, unknown>;
  return typeof error === 'string' && typeof message === 'string';
}

/** Retry-After in whole seconds (the service's form), or from an HTTP date; undefined when absent. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The error a non-2xx response stands for: ApiError when its body (as openapi-fetch parsed it:
 * JSON, else the text) is the envelope.
 */
export function errorFromResponse(response: Response, body: unknown): ApiError | UnexpectedResponseError {
  if (isErrorEnvelope(body)) return new ApiError(response.status, body, response.headers);
  return new UnexpectedResponseError(
    response.status,
    typeof body === 'string' ? body : (JSON.stringify(body) ?? ''),
    response.headers.get('x-request-id') ?? undefined,
  );
}
