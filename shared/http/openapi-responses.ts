import type { ResponseObject } from './openapi-errors.js';
import { headerRefs, RATE_LIMIT_HEADERS } from './openapi-headers.js';
import { type JsonSchema, jsonSchema } from './openapi-json-schema.js';
import type { Operation } from './operation.js';

/** Operations whose headers schema reads an Idempotency-Key answer a replay with Idempotent-Replayed. */
function takesIdempotencyKey(operation: Operation): boolean {
  return Object.hasOwn(operation.schemas.headers?.shape ?? {}, 'idempotency-key');
}

/**
 * The success response: the operation's own description of it (else its response schema's, else
 * its summary), the headers it carries, and the body's schema unless the status is 204.
 */
export function successResponse(
  operation: Operation,
  components: Record<string, JsonSchema>,
): ResponseObject {
  const description =
    operation.successDescription ?? operation.schemas.response.description ?? operation.summary;
  const headers = {
    ...headerRefs('X-Request-Id'),
    ...(operation.auth === 'apiKey' && headerRefs(...RATE_LIMIT_HEADERS)),
    ...(takesIdempotencyKey(operation) && headerRefs('Idempotent-Replayed')),
  };
  if (operation.successStatus === 204) return { description, headers };
  return {
    description,
    headers,
    content: {
      [operation.nonJson?.mediaType ?? 'application/json']: {
        schema: jsonSchema(operation.schemas.response, 'output', components),
      },
    },
  };
}

/** The answers a non-JSON operation gives besides its success (a redirect, a page), by status. */
export function otherResponsesFor(operation: Operation): Record<string, ResponseObject> {
  if (!operation.nonJson) return {};
  const { mediaType, otherStatuses } = operation.nonJson;
  return Object.fromEntries(
    Object.entries(otherStatuses).map(([status, other]) => [
      status,
      {
        description: other.description,
        headers: {
          ...headerRefs('X-Request-Id'),
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
export function mergeResponses(
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
