import * as z from 'zod';
import { ERROR_STATUS, type ErrorCode, INTERNAL_ERROR_ENVELOPE } from '../domain/errors.js';
import { POLICY_FACET_ORDER } from '../domain/policy-check.js';
import { buildWebhooksSection } from './openapi-webhooks.js';
import type { Operation } from './operation.js';
import { errorCodesOf } from './operation-errors.js';

type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

/** Rewrites `#/$defs/X` to `#/components/schemas/X`, collecting the definitions as components. */
function hoistDefinitions(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const { $defs, $schema: _dialect, ...rest } = schema;
  for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    components[name] = hoistDefinitions(definition, components);
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) =>
          key === '$ref' && typeof inner === 'string'
            ? [key, inner.replace('#/$defs/', COMPONENT_PREFIX)]
            : [key, rewrite(inner)],
        ),
      );
    }
    return value;
  };
  return rewrite(rest) as JsonSchema;
}

function jsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return hoistDefinitions(generated, components);
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
    reason: { type: 'string', description: 'policy_violation: why, in words.' },
    required: { type: 'string', description: 'permission_denied: the missing permission.' },
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
  payload_too_large: 'the body is over 1 MiB.',
  unsupported_media_type: 'the body is not declared JSON: send Content-Type: application/json.',
  VALIDATION_FAILED: "the post breaks the network's rules; see `errors`.",
  idempotency_key_reused: 'this Idempotency-Key was used with another body.',
  rate_limited: 'over the per-minute limit: wait Retry-After seconds.',
  internal_error: 'our fault: retry with backoff.',
  service_unavailable:
    'a part of the service this operation needs is not configured or not reachable: retry later.',
};

const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };

/** One response per status, listing the codes it may carry: the schema pins `error` to them. */
function errorResponse(codes: readonly ErrorCode[]) {
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join('\n\n'),
    headers: codes.includes('rate_limited')
      ? {
          ...requestIdHeader,
          'Retry-After': { schema: { type: 'integer' }, description: 'Whole seconds to wait.' },
        }
      : requestIdHeader,
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: `${COMPONENT_PREFIX}Error` }, { properties: { error: { enum: [...codes] } } }],
        },
      },
    },
  };
}

/** The operation's error responses, by status, from the codes it declares and the stack adds. */
function errorResponsesFor(operation: Operation): Record<string, ResponseObject> {
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

interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}

/** The answers a non-JSON operation gives besides its success (a redirect, a page), by status. */
function otherResponsesFor(operation: Operation): Record<string, ResponseObject> {
  if (!operation.nonJson) return {};
  const { mediaType, otherStatuses } = operation.nonJson;
  return Object.fromEntries(
    Object.entries(otherStatuses).map(([status, other]) => [
      status,
      {
        description: other.description,
        headers: {
          ...requestIdHeader,
          ...Object.fromEntries(
            Object.entries(other.headers ?? {}).map(([name, description]) => [
              name,
              { schema: { type: 'string' }, description },
            ]),
          ),
        },
        ...(other.hasBody && { content: { [mediaType]: { schema: { type: 'string' } } } }),
      },
    ]),
  );
}

/** Both descriptions of a status one operation answers in two ways (an error envelope and a page). */
function mergeResponses(
  first: Record<string, ResponseObject>,
  second: Record<string, ResponseObject>,
): Record<string, ResponseObject> {
  const merged = { ...first };
  for (const [status, response] of Object.entries(second)) {
    const existing = merged[status];
    merged[status] = existing
      ? {
          description: `${existing.description}\n\n${response.description}`,
          headers: { ...existing.headers, ...response.headers },
          content: { ...existing.content, ...response.content },
        }
      : response;
  }
  return merged;
}

function parametersFor(operation: Operation, components: Record<string, JsonSchema>) {
  const fromShape = (shape: z.ZodRawShape, location: 'path' | 'query' | 'header') =>
    Object.entries(shape).map(([name, schema]) => {
      const property = jsonSchema(schema as z.ZodType, 'input', components);
      const optional = (schema as z.ZodType).safeParse(undefined).success;
      return {
        // Header schemas use the lower-case names API Gateway delivers; documentation shows the usual form.
        name:
          location === 'header'
            ? name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())
            : name,
        in: location,
        required: location === 'path' || !optional,
        ...(typeof property.description === 'string' && { description: property.description }),
        schema: property,
      };
    });
  const parameters = [
    ...fromShape(operation.schemas.params.shape, 'path'),
    ...fromShape(operation.schemas.query.shape, 'query'),
    ...(operation.schemas.headers ? fromShape(operation.schemas.headers.shape, 'header') : []),
  ];
  if (operation.workspace === 'implicit') {
    parameters.push({
      name: 'workspaceId',
      in: 'query',
      required: false,
      description: 'The workspace, when the key can access several (else 403 workspace_required).',
      schema: { type: 'string' },
    });
  }
  return parameters;
}

/** The OpenAPI 3.1 document of the API, generated from the same schemas the handlers validate with. */
export function buildOpenApiDocument(operations: readonly Operation[]) {
  const components: Record<string, JsonSchema> = { Error: errorEnvelopeSchema };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const successHeaders: Record<string, unknown> = {
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    };
    if (operation.auth === 'apiKey') {
      for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
        successHeaders[name] = { $ref: `#/components/headers/${name}` };
      }
    }
    const success =
      operation.successStatus === 204
        ? { description: 'Done.', headers: successHeaders }
        : {
            description: 'Success.',
            headers: successHeaders,
            content: {
              [operation.nonJson?.mediaType ?? 'application/json']: {
                schema: jsonSchema(operation.schemas.response, 'output', components),
              },
            },
          };
    const entry = {
      operationId: operation.id,
      summary: operation.summary,
      description: operation.description,
      tags: [operation.tag],
      'x-permission': operation.permission ?? null,
      'x-rate-limit-family': operation.rateLimitFamily,
      security: operation.auth === 'apiKey' ? [{ apiKey: [] }] : [],
      parameters: parametersFor(operation, components),
      ...(operation.schemas.body && {
        requestBody: {
          required: true,
          description:
            'JSON: Content-Type application/json (any charset) or application/<x>+json; any other type, or none, is 415 unsupported_media_type.',
          content: {
            'application/json': { schema: jsonSchema(operation.schemas.body, 'input', components) },
          },
        },
      }),
      responses: {
        [String(operation.successStatus)]: success,
        ...mergeResponses(otherResponsesFor(operation), errorResponsesFor(operation)),
      },
    };
    paths[operation.path] = { ...paths[operation.path], [operation.method.toLowerCase()]: entry };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Social Publishing API',
      version: '1.0.0',
      description:
        'Create posts for connected social accounts; the service delivers them asynchronously. Every non-2xx response has the body {error, message, details?} and every response carries X-Request-Id.',
    },
    servers: [{ url: '/' }],
    paths,
    webhooks: buildWebhooksSection((schema) => jsonSchema(schema, 'input', components)),
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer smcp_<64 lowercase hex>',
        },
      },
      headers: {
        'X-Request-Id': { schema: { type: 'string' }, description: 'Correlation id of the request.' },
        'X-RateLimit-Limit': {
          schema: { type: 'integer' },
          description: "Requests per minute in this operation's family.",
        },
        'X-RateLimit-Remaining': {
          schema: { type: 'integer' },
          description: 'Requests left in the current minute.',
        },
        'X-RateLimit-Reset': {
          schema: { type: 'integer' },
          description: 'Unix time (seconds) when the window resets.',
        },
      },
    },
  };
}
