/**
 * One error hierarchy for the whole service. Every error that may reach a caller is an AppError
 * with a stable `code` (clients branch on it) and a safe `message`; `fields` are extra top-level
 * members of the error envelope (docs/api-decisions.md#errors). Anything else is an internal error and leaves
 * the process only as a generic 500.
 */
/**
 * Every error code a caller can receive, with its HTTP status: the one place a code's status is
 * stated. AppError takes its status from here, and the OpenAPI document groups each operation's
 * codes by it.
 */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  unauthorized: 401,
  permission_denied: 403,
  plan_inactive: 403,
  workspace_required: 403,
  policy_violation: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  upload_incomplete: 409,
  network_not_configured: 409,
  post_not_published: 409,
  metrics_unavailable: 409,
  metrics_missing_scopes: 409,
  metrics_not_collected_yet: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  VALIDATION_FAILED: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export abstract class AppError extends Error {
  abstract readonly code: ErrorCode;
  get status(): number {
    return ERROR_STATUS[this.code];
  }
  /** Extra members of the envelope, e.g. `required` or `available_workspaces`. */
  readonly fields: Record<string, unknown> = {};
  /** Extra response headers, e.g. `Retry-After` or `Allow`. */
  readonly headers: Record<string, string> = {};
}

export type ValidationDetails = Record<string, string[]>;

export class InvalidRequestError extends AppError {
  readonly code = 'INVALID_REQUEST';
  constructor(
    message: string,
    readonly details?: ValidationDetails,
  ) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}

export class UnauthorizedError extends AppError {
  readonly code = 'unauthorized';
  constructor(message = 'Missing or invalid API key. Send Authorization: Bearer smcp_<64 hex>.') {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

export class PermissionDeniedError extends AppError {
  readonly code = 'permission_denied';
  constructor(required: string) {
    super(`This API key's agent lacks the permission "${required}".`);
    this.name = 'PermissionDeniedError';
    this.fields.required = required;
  }
}

export class PlanInactiveError extends AppError {
  readonly code = 'plan_inactive';
  constructor() {
    super("The tenant's subscription is not active.");
    this.name = 'PlanInactiveError';
  }
}

export class WorkspaceRequiredError extends AppError {
  readonly code = 'workspace_required';
  constructor(availableWorkspaces: string[]) {
    super('This API key can access several workspaces: name one with the query parameter workspaceId.');
    this.name = 'WorkspaceRequiredError';
    this.fields.available_workspaces = availableWorkspaces;
  }
}

export class PolicyViolationError extends AppError {
  readonly code = 'policy_violation';
  constructor(facet: string, reason: string) {
    super(`The workspace's ${facet} policy does not allow this post: ${reason}`);
    this.name = 'PolicyViolationError';
    this.fields.facet = facet;
    this.fields.reason = reason;
  }
}

export class NotFoundError extends AppError {
  readonly code = 'not_found';
  constructor(message = 'The resource does not exist or this API key cannot see it.') {
    super(message);
    this.name = 'NotFoundError';
  }
}

export class MethodNotAllowedError extends AppError {
  readonly code = 'method_not_allowed';
  constructor(method: string, allowed: string[]) {
    super(`${method} is not allowed on this path. Allowed: ${allowed.join(', ')}.`);
    this.name = 'MethodNotAllowedError';
    this.headers.Allow = allowed.join(', ');
  }
}

export class ConflictError extends AppError {
  readonly code: 'conflict' | 'upload_incomplete';
  constructor(message: string, code: 'conflict' | 'upload_incomplete' = 'conflict') {
    super(message);
    this.name = 'ConflictError';
    this.code = code;
  }
}

/** The deployment has no app (client credentials) for this network: its accounts cannot be connected. */
export class NetworkNotConfiguredError extends AppError {
  readonly code = 'network_not_configured';
  constructor(platform: string) {
    super(
      `Connecting ${platform} accounts is not configured on this deployment: the operator has not set up its app.`,
    );
    this.name = 'NetworkNotConfiguredError';
    this.fields.platform = platform;
  }
}

export class PayloadTooLargeError extends AppError {
  readonly code = 'payload_too_large';
  constructor(limitBytes: number) {
    super(`The request body is larger than ${limitBytes} bytes.`);
    this.name = 'PayloadTooLargeError';
  }
}

export class UnsupportedMediaTypeError extends AppError {
  readonly code = 'unsupported_media_type';
  constructor(received: string | undefined) {
    super(
      received
        ? `The request body must be JSON (Content-Type: application/json), not ${received}.`
        : 'The request body must be JSON: send Content-Type: application/json.',
    );
    this.name = 'UnsupportedMediaTypeError';
  }
}

/** Platform rules (422): every violation at once, in `errors[]`. */
export class ValidationFailedError extends AppError {
  readonly code = 'VALIDATION_FAILED';
  constructor(errors: { field: string; code: string; message: string; limit?: number }[]) {
    super(
      `The post breaks ${errors.length} rule${errors.length === 1 ? '' : 's'} of the target network; see errors.`,
    );
    this.name = 'ValidationFailedError';
    this.fields.errors = errors;
  }
}

export class IdempotencyKeyReusedError extends AppError {
  readonly code = 'idempotency_key_reused';
  constructor() {
    super('This Idempotency-Key was used with a different request body. Use a new key for a new post.');
    this.name = 'IdempotencyKeyReusedError';
  }
}

export class RateLimitedError extends AppError {
  readonly code = 'rate_limited';
  constructor(
    family: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`Rate limit for "${family}" exceeded. Retry after ${retryAfterSeconds} seconds.`);
    this.name = 'RateLimitedError';
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

export class ServiceUnavailableError extends AppError {
  readonly code = 'service_unavailable';
  /** `retryAfterSeconds`: when the cause passes by itself (an outage), how soon to try again. */
  constructor(message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'ServiceUnavailableError';
    if (retryAfterSeconds !== undefined) this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/** The body of every non-2xx response. */
export interface ErrorEnvelope {
  error: string;
  message: string;
  details?: ValidationDetails;
  [field: string]: unknown;
}

export function toEnvelope(error: AppError): ErrorEnvelope {
  const envelope: ErrorEnvelope = { error: error.code, message: error.message, ...error.fields };
  if (error instanceof InvalidRequestError && error.details) envelope.details = error.details;
  return envelope;
}

export const INTERNAL_ERROR_ENVELOPE: ErrorEnvelope = {
  error: 'internal_error',
  message: 'Something went wrong on our side. Retry with backoff; the request id identifies it.',
};
