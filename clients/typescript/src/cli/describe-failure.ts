import { ApiError, NetworkError, UnexpectedResponseError } from '../errors.js';

/** A mistake in how the tool was called or what it was given: said plainly, never with a stack. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * One paragraph for stderr: the service's own code and message (never another system's raw body),
 * the fields it named, and the request id to quote; for anything else, its message alone.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) {
    const lines = [`error: the service answered ${error.status} ${error.code}: ${error.message}`];
    for (const [field, messages] of Object.entries(error.details ?? {}))
      lines.push(`  ${field}: ${messages.join('; ')}`);
    for (const violation of error.errors ?? [])
      lines.push(`  ${violation.field}: ${violation.code}: ${violation.message}`);
    if (error.requestId) lines.push(`  (request ${error.requestId})`);
    return lines.join('\n');
  }
  if (error instanceof UnexpectedResponseError) {
    return `error: the service answered HTTP ${error.status} without its error envelope${error.requestId ? ` (request ${error.requestId})` : ''}`;
  }
  if (error instanceof NetworkError) return `error: cannot reach the service: ${error.message}`;
  if (error instanceof Error) return `error: ${error.message}`;
  return `error: ${String(error)}`;
}
