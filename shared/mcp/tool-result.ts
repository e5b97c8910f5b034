import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorEnvelope } from '../domain/errors.js';
import type { RateLimitDecision } from '../domain/rate-limit-policy.js';
import type { OperationResult } from '../pipeline/operation-request.js';

const REPLAY_NOTE =
  'Replayed: this idempotencyKey was already used with this same input, so this is the first call’s answer again and nothing new was created.';

function rateLimitMeta(decision: RateLimitDecision | undefined) {
  return decision
    ? {
        rateLimit: {
          limit: decision.limit,
          remaining: decision.remaining,
          reset: decision.resetEpochSeconds,
        },
      }
    : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A successful call: the REST body as `structuredContent` (and as JSON text, for clients that read
 * only `content`), and in `_meta` the HTTP status, the headers the REST call would add and the
 * rate-limit state. An idempotent replay says so in both.
 */
export function successResult(
  result: OperationResult,
  rateLimit: RateLimitDecision | undefined,
): CallToolResult {
  const replayed = result.headers['Idempotent-Replayed'] === 'true';
  const text = result.status === 204 ? 'Done: nothing to return (HTTP 204).' : JSON.stringify(result.body);
  return {
    content: [{ type: 'text', text }, ...(replayed ? [{ type: 'text' as const, text: REPLAY_NOTE }] : [])],
    ...(result.status !== 204 && isObject(result.body) && { structuredContent: result.body }),
    _meta: {
      status: result.status,
      ...(replayed && { idempotentReplayed: true }),
      ...(Object.keys(result.headers).length > 0 && { headers: result.headers }),
      ...rateLimitMeta(rateLimit),
    },
  };
}

/** A failed call: our envelope and the HTTP status the same REST call answers, as a tool error. */
export function errorResult(
  status: number,
  envelope: ErrorEnvelope,
  headers: Readonly<Record<string, string>>,
  rateLimit: RateLimitDecision | undefined,
): CallToolResult {
  const structured = { ...envelope, status };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    _meta: {
      status,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...rateLimitMeta(rateLimit),
    },
  };
}
