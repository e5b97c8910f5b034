import {
  ERROR_STATUS,
  type ErrorCode,
  INTERNAL_ERROR_ENVELOPE,
  MethodNotAllowedError,
  toEnvelope,
} from '../domain/errors.js';
import { POLICY_FACET_ORDER } from '../domain/policy-check.js';
import { headerRefs } from './openapi-headers.js';
import { COMPONENT_PREFIX, type JsonSchema } from './openapi-json-schema.js';
import type { Operation } from './operation.js';
import { errorCodesOf } from './operation-errors.js';

export interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: unknown; example?: unknown }>;
}

export const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'Stable machine code; branch on it with the status.' },
    message: { type: 'string', description: 'Human text; may change; do not match on it.' },
    details: {
      type: 'object',
      description: 'INVALID_REQUEST: field path → messages, every failure at once.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    errors: {
      type: 'array',
      description: 'VALIDATION_FAILED: every rule the post breaks.',
      items: {
        type: 'object',
        required: ['field', 'code', 'message'],
        properties: {
          field: { type: 'string', description: 'Field path: content, content[1].text, media[0].id…' },
          code: { type: 'string', description: 'TEXT_TOO_LONG, MEDIA_NOT_FOUND, ACCOUNT_DISCONNECTED…' },
          message: { type: 'string' },
          limit: { type: 'number', description: 'The limit broken, where one applies.' },
        },
      },
    },
    facet: {
      type: 'string',
      enum: [...POLICY_FACET_ORDER],
      description: 'policy_violation: the workspace policy that refused the post.',
    },
    required: { type: 'string', description: 'permission_denied: the missing permission.' },
    reason: {
      type: 'string',
      description:
        'policy_violation: why, in words. metrics_unavailable: network_gives_none, not_collected_by_workspace or deleted_at_network.',
    },
    postStatus: { type: 'string', description: "post_not_published: the post's status." },
    missingScopes: {
      type: 'array',
      items: { type: 'string' },
      description: "metrics_missing_scopes: the permissions the account's token lacks.",
    },
    nextCollectionAt: {
      type: ['string', 'null'],
      description: 'metrics_not_collected_yet: when the first collection is due (ISO 8601), or null.',
    },
    available_workspaces: {
      type: 'array',
      items: { type: 'string' },
      description: 'workspace_required: the workspaces to choose from.',
    },
  },
  additionalProperties: true,
  example: INTERNAL_ERROR_ENVELOPE,
};

/** What each code means to a caller; a new code without a line here does not compile. */
const ERROR_DESCRIPTIONS: Readonly<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'the request failed schema validation; see `details`.',
  unauthorized: 'missing, malformed, unknown or revoked API key.',
  permission_denied: "the key's agent lacks the permission named in `required`.",
  plan_inactive: "the tenant's plan is not active.",
  workspace_required:
    'the key can access several workspaces: name one with ?workspaceId= (see `available_workspaces`).',
  policy_violation: 'a workspace policy refuses the post; see `facet` and `reason`.',
  not_found: 'no such resource, or the key cannot see it.',
  method_not_allowed: 'the path exists under other methods; see the Allow header.',
  conflict: "the resource's state does not allow this, or it changed meanwhile: read it again.",
  upload_incomplete: 'the file is not in storage yet, or not as declared.',
  network_not_configured:
    'the deployment has no app credentials (or no connector) for this network: its accounts cannot be connected.',
  post_not_published:
    'the post is not published (yet, or any more): it has no metrics; its `status` says where it is.',
  metrics_unavailable:
    "no metrics for this: its network gives none, or the workspace does not collect that network's (see `reason`).",
  metrics_missing_scopes:
    "the account's token lacks the permissions its network's metrics need (see `missingScopes`): reconnect the account.",
  metrics_not_collected_yet: 'no reading yet: the first collection is due at `nextCollectionAt`.',
  payload_too_large: 'the body is over 1 MiB.',
  unsupported_media_type: 'the body is not declared JSON: send Content-Type: application/json.',
  VALIDATION_FAILED: "the post breaks the network's rules; see `errors`.",
  idempotency_key_reused: 'this Idempotency-Key was used with another body.',
  rate_limited: 'over the per-minute limit: wait Retry-After seconds.',
  internal_error: 'our fault: retry with backoff.',
  service_unavailable:
    'the storage is throttled or unreachable (retry after Retry-After seconds), or a part of the service this operation needs is not configured.',
};

/** One response per status, listing the codes it may carry: the schema pins `error` to them. */
function errorResponse(codes: readonly ErrorCode[], extraHeaders: Record<string, unknown> = {}) {
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join('\n\n'),
    headers: {
      ...headerRefs('X-Request-Id'),
      ...((codes.includes('rate_limited') || codes.includes('service_unavailable')) &&
        headerRefs('Retry-After')),
      ...extraHeaders,
    },
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: `${COMPONENT_PREFIX}Error` }, { properties: { error: { enum: [...codes] } } }],
        },
      },
    },
  } satisfies ResponseObject;
}

/** The operation's error responses, by status, from the codes it declares and the stack adds. */
export function errorResponsesFor(operation: Operation): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [String(status), errorResponse(codes)]),
  );
}

/**
 * `components.responses.MethodNotAllowed`: what any path answers to a method it does not list (the
 * fallback route, shared/http/fallback-handler.ts). No operation lists it: a client generated from
 * the document cannot send such a method, so it is documented once, here and in info.description.
 */
export function methodNotAllowedResponse(): ResponseObject {
  const response = errorResponse(['method_not_allowed'], {
    Allow: {
      schema: { type: 'string' },
      description: 'The methods the path answers, comma-separated, e.g. `GET, DELETE`.',
      required: true,
    },
  });
  const example = toEnvelope(new MethodNotAllowedError('PUT', ['GET', 'DELETE']));
  return {
    ...response,
    description: `Any path answers a method it does not list with 405. ${response.description}`,
    content: { 'application/json': { ...response.content['application/json'], example } },
  };
}
