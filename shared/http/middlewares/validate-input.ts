import {
  InvalidRequestError,
  UnsupportedMediaTypeError,
  type ValidationDetails,
} from '../../domain/errors.js';
import { headerOf, isJsonContentType, mediaTypeOf } from '../content-type.js';
import type { Operation } from '../operation.js';
import { type ApiEvent, type ApiMiddleware, stateOf } from '../request-state.js';
import { toValidationDetails } from '../validation-details.js';

/**
 * A body must say it is JSON (`application/json` or `application/<x>+json`, any charset or other
 * parameter): anything else, or no Content-Type at all, is 415. An empty body is left to the schema.
 */
function requireJsonContentType(event: ApiEvent): void {
  if (event.body === undefined || event.body === '') return;
  const contentType = headerOf(event.headers, 'content-type');
  if (contentType === undefined || !isJsonContentType(contentType)) {
    throw new UnsupportedMediaTypeError(contentType && mediaTypeOf(contentType).slice(0, 100));
  }
}

function parseJsonBody(body: string | undefined, isBase64Encoded: boolean): unknown {
  if (body === undefined || body === '') return undefined;
  const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError('The request body is not valid JSON.', { body: ['Malformed JSON.'] });
  }
}

/**
 * For an operation that takes a body: 415 unless the body is declared JSON. Then parses the JSON
 * body and checks path parameters, query and body against the operation's schemas: every failure
 * is one 400 INVALID_REQUEST whose `details` lists all of them. An operation without a body schema
 * ignores any body, and its Content-Type, as before.
 */
export function validateInput(operation: Operation): ApiMiddleware {
  return {
    before: (request) => {
      const { event } = request;
      const state = stateOf(request);
      const { params, query, body, headers } = operation.schemas;
      if (body) requireJsonContentType(event);
      const details: ValidationDetails = {};
      const parsedParams = params.safeParse(event.pathParameters ?? {});
      if (!parsedParams.success) Object.assign(details, toValidationDetails(parsedParams.error, 'params'));
      const parsedQuery = query.safeParse(event.queryStringParameters ?? {});
      if (!parsedQuery.success) Object.assign(details, toValidationDetails(parsedQuery.error, 'query'));
      let headerValues: Record<string, unknown> = {};
      if (headers) {
        const parsedHeaders = headers.safeParse(event.headers ?? {});
        if (parsedHeaders.success) headerValues = parsedHeaders.data;
        else Object.assign(details, toValidationDetails(parsedHeaders.error, 'headers'));
      }
      let bodyValue: unknown;
      if (body) {
        state.parsedBody = parseJsonBody(event.body, event.isBase64Encoded);
        const parsedBody = body.safeParse(state.parsedBody);
        if (parsedBody.success) bodyValue = parsedBody.data;
        else Object.assign(details, toValidationDetails(parsedBody.error, 'body'));
      }
      if (Object.keys(details).length > 0 || !parsedParams.success || !parsedQuery.success) {
        throw new InvalidRequestError('The request does not match the schema; see details.', details);
      }
      state.input = {
        params: parsedParams.data,
        query: parsedQuery.data,
        body: bodyValue,
        headers: headerValues,
      };
    },
  };
}
