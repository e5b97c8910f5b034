import { z } from 'zod';
import { INTERNAL_ERROR_ENVELOPE } from '../domain/errors.js';
import type { Operation } from './operation.js';

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

const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'Stable machine code; branch on it with the status.' },
    message: { type: 'string', description: 'Human text; may change; do not match on it.' },
    details: {
      type: 'object',
      description: 'Validation errors: field name → messages.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
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

const errorResponse = (description: string) => ({
  description,
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
  content: { 'application/json': { schema: { $ref: `${COMPONENT_PREFIX}Error` } } },
});

function errorResponsesFor(operation: Operation): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    '400': errorResponse('INVALID_REQUEST: the request failed schema validation; see details.'),
    '413': errorResponse('payload_too_large: the body is over 1 MiB.'),
    '500': errorResponse('internal_error: retry with backoff.'),
  };
  if (operation.auth === 'apiKey') {
    Object.assign(responses, {
      '401': errorResponse('unauthorized: missing, malformed, unknown or revoked API key.'),
      '403': errorResponse('permission_denied (with `required`), plan_inactive, or workspace_required.'),
      '404': errorResponse('not_found: no such resource, or the key cannot see it.'),
      '429': {
        ...errorResponse('rate_limited: wait Retry-After seconds.'),
        headers: {
          'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
          'Retry-After': { schema: { type: 'integer' }, description: 'Whole seconds to wait.' },
        },
      },
    });
  }
  return responses;
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
              'application/json': { schema: jsonSchema(operation.schemas.response, 'output', components) },
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
          content: {
            'application/json': { schema: jsonSchema(operation.schemas.body, 'input', components) },
          },
        },
      }),
      responses: { [String(operation.successStatus)]: success, ...errorResponsesFor(operation) },
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
