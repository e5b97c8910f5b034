import type { ResponseObject } from './openapi-errors.js';
import type { OperationExamples } from './openapi-examples.js';

type Content = NonNullable<ResponseObject['content']>;

/**
 * The media type an example belongs to: the only one there is, else a string goes with the
 * non-JSON type (a page) and anything else with application/json (the error envelope).
 */
function mediaTypeFor(content: Content, example: unknown): string | undefined {
  const types = Object.keys(content);
  if (types.length <= 1) return types[0];
  if (typeof example === 'string') return types.find((type) => type !== 'application/json');
  return types.includes('application/json') ? 'application/json' : undefined;
}

function withExample(content: Content, example: unknown, where: string): Content {
  const mediaType = mediaTypeFor(content, example);
  const media = mediaType === undefined ? undefined : content[mediaType];
  if (mediaType === undefined || !media) throw new Error(`${where} has no body for the example to describe.`);
  return { ...content, [mediaType]: { ...media, example } };
}

/**
 * Sets `example` on the request body's media type and on each response's that has a recorded body.
 * An example for a status the operation does not document, or for a body it does not take, is an
 * error: the recording and the document disagree, and a silent drop would hide it.
 */
export function placeExamples<Body extends { content: Content }>(
  operationId: string,
  parts: { requestBody?: Body; responses: Record<string, ResponseObject> },
  examples: OperationExamples | undefined,
): { requestBody?: Body; responses: Record<string, ResponseObject> } {
  if (!examples) return parts;
  let { requestBody } = parts;
  if (examples.request !== undefined) {
    if (!requestBody) throw new Error(`${operationId} takes no request body, but has a request example.`);
    requestBody = {
      ...requestBody,
      content: withExample(requestBody.content, examples.request, `${operationId}'s request`),
    };
  }
  const responses = { ...parts.responses };
  for (const [status, example] of Object.entries(examples.responses)) {
    const response = responses[status];
    const where = `${operationId}'s ${status} response`;
    if (!response) throw new Error(`${operationId} does not document ${status}, but has an example for it.`);
    if (!response.content) throw new Error(`${where} has no body for the example to describe.`);
    responses[status] = { ...response, content: withExample(response.content, example, where) };
  }
  return { ...(requestBody && { requestBody }), responses };
}
