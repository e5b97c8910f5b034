import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ApiError, ErrorCode } from '../src/index.js';

/**
 * Every error code of the document with its status. `satisfies Record<ErrorCode, number>` makes
 * this list the type-check's: a code the document gains is a missing property here, and a code it
 * loses an excess one, so `tsc` (npm test) fails until the client's users are told.
 */
const STATUS_OF_CODE = {
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
} as const satisfies Record<ErrorCode, number>;

/**
 * What a caller does about each code: the exhaustive switch the README shows. A new code reaches
 * `default`, where it is not `never`, and a removed one makes its `case` label a type error
 * ("not comparable"): either way `tsc` fails.
 */
function nextStep(
  code: ApiError['code'],
): 'fix the request' | 'retry later' | 'ask a person' | 'read it again' {
  switch (code) {
    case 'INVALID_REQUEST':
    case 'VALIDATION_FAILED':
    case 'payload_too_large':
    case 'unsupported_media_type':
    case 'method_not_allowed':
    case 'idempotency_key_reused':
    case 'workspace_required':
      return 'fix the request';
    case 'rate_limited':
    case 'internal_error':
    case 'service_unavailable':
    case 'upload_incomplete':
    case 'metrics_not_collected_yet':
      return 'retry later';
    case 'unauthorized':
    case 'permission_denied':
    case 'plan_inactive':
    case 'policy_violation':
    case 'network_not_configured':
    case 'metrics_unavailable':
    case 'metrics_missing_scopes':
      return 'ask a person';
    case 'not_found':
    case 'conflict':
    case 'post_not_published':
      return 'read it again';
    default: {
      const unhandled: never = code;
      throw new Error(`A code this client does not know: ${String(unhandled)}`);
    }
  }
}

interface DocumentResponse {
  content?: {
    'application/json'?: { schema?: { allOf?: { properties?: { error?: { enum?: string[] } } }[] } };
  };
}

/** (code, status) of every error response in the committed document, shared responses included. */
function documentedCodes(): Map<string, Set<number>> {
  const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { responses: Record<string, DocumentResponse> }>>;
    components: { responses?: Record<string, DocumentResponse> };
  };
  const found = new Map<string, Set<number>>();
  const record = (status: number, response: DocumentResponse) => {
    for (const part of response.content?.['application/json']?.schema?.allOf ?? []) {
      for (const code of part.properties?.error?.enum ?? []) {
        found.set(code, new Set([...(found.get(code) ?? []), status]));
      }
    }
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses)) record(Number(status), response);
    }
  }
  const methodNotAllowed = document.components.responses?.MethodNotAllowed;
  if (methodNotAllowed) record(405, methodNotAllowed);
  return found;
}

describe('error codes', () => {
  it('the union the client switches on is exactly the codes the document lists, each with its status', () => {
    const expected = new Map(
      Object.entries(STATUS_OF_CODE).map(([code, status]) => [code, new Set([status])]),
    );
    expect(documentedCodes()).toEqual(expected);
  });

  it('the switch gives every code a next step', () => {
    const codes = Object.keys(STATUS_OF_CODE) as ErrorCode[];
    const steps = new Map(codes.map((code) => [code, nextStep(code)]));
    expect(steps.size).toBe(22);
    expect(steps.get('rate_limited')).toBe('retry later');
    expect(steps.get('VALIDATION_FAILED')).toBe('fix the request');
    expect(steps.get('conflict')).toBe('read it again');
  });
});
