import { errorEnvelopeSchema, errorResponsesFor, methodNotAllowedResponse } from './openapi-errors.js';
import { placeExamples } from './openapi-example-placement.js';
import { type OperationExamples, operationExamples } from './openapi-examples.js';
import { HEADER_COMPONENTS } from './openapi-headers.js';
import { type JsonSchema, jsonSchema } from './openapi-json-schema.js';
import { parametersFor } from './openapi-parameters.js';
import { mergeResponses, otherResponsesFor, successResponse } from './openapi-responses.js';
import { declaredTags } from './openapi-tags.js';
import { buildWebhooksSection, WEBHOOK_TAG } from './openapi-webhooks.js';
import type { Operation } from './operation.js';

export { errorEnvelopeSchema } from './openapi-errors.js';

/** Local port of `npm start` (infra/local/main.ts, PORT's default). */
const LOCAL_HOST_URL = 'http://localhost:3000';

const DESCRIPTION = [
  'Create posts for connected social accounts; the service delivers them asynchronously (poll the post, read the event feed, or receive webhooks).',
  'Every non-2xx response has the body `{error, message, details?}` (`Error`); each operation lists the codes it can answer, per status. Every response carries `X-Request-Id`; 2xx answers to a keyed call carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; a 429 carries `Retry-After`.',
  'A method a path does not list answers 405 `method_not_allowed` with an `Allow` header naming the methods it does (`components.responses.MethodNotAllowed`); an unknown path answers 404 `not_found`.',
  'Served by the deployment itself at GET /v1/openapi.json: its paths are relative to the address it is served from.',
].join('\n\n');

function operationEntry(
  operation: Operation,
  components: Record<string, JsonSchema>,
  examples: OperationExamples | undefined,
) {
  const requestBody = operation.schemas.body && {
    required: true,
    description:
      'JSON: Content-Type application/json (any charset) or application/<x>+json; any other type, or none, is 415 unsupported_media_type.',
    content: {
      'application/json': { schema: jsonSchema(operation.schemas.body, 'input', components) },
    },
  };
  const responses = {
    [String(operation.successStatus)]: successResponse(operation, components),
    ...mergeResponses(otherResponsesFor(operation), errorResponsesFor(operation)),
  };
  const placed = placeExamples(operation.id, { ...(requestBody && { requestBody }), responses }, examples);
  return {
    operationId: operation.id,
    summary: operation.summary,
    description: operation.description,
    tags: [operation.tag],
    'x-permission': operation.permission ?? null,
    'x-rate-limit-family': operation.rateLimitFamily,
    security: operation.auth === 'apiKey' ? [{ apiKey: [] }] : [],
    parameters: parametersFor(operation, components),
    ...(placed.requestBody && { requestBody: placed.requestBody }),
    responses: placed.responses,
  };
}

/**
 * The OpenAPI 3.1 document of the API, generated from the same schemas the handlers validate with.
 * `examples` are the recorded request and response bodies by operationId (openapi-examples.json).
 */
export function buildOpenApiDocument(
  operations: readonly Operation[],
  examples: Readonly<Record<string, OperationExamples>> = operationExamples,
) {
  const components: Record<string, JsonSchema> = { Error: errorEnvelopeSchema };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method.toLowerCase()]: operationEntry(operation, components, examples[operation.id]),
    };
  }
  const webhooks = buildWebhooksSection((schema) => jsonSchema(schema, 'input', components));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Social Publishing API',
      version: '1.0.0',
      description: DESCRIPTION,
      contact: { name: 'The operators of this deployment (see docs/operating.md in the service repository)' },
      // The repository states no licence: nothing is granted, which SPDX spells as a LicenseRef.
      license: { name: 'Proprietary: no licence granted', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      { url: '/', description: 'The deployment that serves this document: paths are relative to it.' },
      {
        url: '{baseUrl}',
        description: 'Any deployment, named by its base URL.',
        variables: {
          baseUrl: {
            default: LOCAL_HOST_URL,
            description:
              "A deployment's base URL, without a trailing slash: its stack output ApiUrl or custom domain (docs/deploy.md), or the local host of `npm start`.",
          },
        },
      },
    ],
    tags: declaredTags([...operations.map((operation) => operation.tag), WEBHOOK_TAG]),
    paths,
    webhooks,
    components: {
      schemas: components,
      responses: { MethodNotAllowed: methodNotAllowedResponse() },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'smcp_<64 lowercase hex>',
          description:
            'Authorization: Bearer smcp_<64 lowercase hex>: an API key, shown once when it is made.',
        },
      },
      headers: HEADER_COMPONENTS,
    },
  };
}
