import { InvalidRequestError, type ValidationDetails } from '../../domain/errors.js';
import { isEmptyObject } from '../../http/json-body.js';
import type { Operation, OperationInput } from '../../http/operation.js';
import { parseInput } from '../../http/validation-details.js';
import type { OperationRequest } from '../operation-request.js';

/** The message of every 400 INVALID_REQUEST whose `details` list schema failures. */
export const SCHEMA_MISMATCH = 'The request does not match the schema; see details.';

/** What an operation without a body schema answers to a body, as it answers an unknown field. */
export const NO_BODY_TAKEN = 'This operation takes no body: send none, or {}.';

/** A body other than nothing or `{}`, for an operation that takes none. */
function carriesBody(request: OperationRequest): boolean {
  if (request.carriesBody) return request.carriesBody();
  const body = request.readBody();
  return body !== undefined && !isEmptyObject(body);
}

type ValidatedInput = OperationInput<Record<string, unknown>, Record<string, unknown>, unknown>;

/**
 * Checks path parameters, query, the headers the operation names and its body against the
 * operation's schemas: every failure is one 400 INVALID_REQUEST whose `details` lists all of them.
 * An operation without a body schema takes none: nothing or `{}` is fine, any other body is refused
 * like an unknown field.
 */
export function validateInput(operation: Operation, request: OperationRequest): ValidatedInput {
  const { params, query, body, headers } = operation.schemas;
  const details: ValidationDetails = { ...request.unplaced };
  // After the unplaced input's messages under the same name, never instead of them.
  const add = (more: ValidationDetails) => {
    for (const [field, messages] of Object.entries(more))
      details[field] = [...(details[field] ?? []), ...messages];
  };
  const parsedParams = parseInput(params, request.params, 'params');
  if (!parsedParams.success) add(parsedParams.details);
  const parsedQuery = parseInput(query, request.query, 'query');
  if (!parsedQuery.success) add(parsedQuery.details);
  let headerValues: Record<string, unknown> = {};
  if (headers) {
    const parsedHeaders = parseInput(headers, request.headers, 'headers');
    if (parsedHeaders.success) headerValues = parsedHeaders.data;
    else add(parsedHeaders.details);
  }
  let bodyValue: unknown;
  if (body) {
    const parsedBody = parseInput(body, request.readBody(), 'body');
    if (parsedBody.success) bodyValue = parsedBody.data;
    else add(parsedBody.details);
  } else if (carriesBody(request)) {
    details.body = [...(details.body ?? []), NO_BODY_TAKEN];
  }
  if (Object.keys(details).length > 0 || !parsedParams.success || !parsedQuery.success) {
    throw new InvalidRequestError(SCHEMA_MISMATCH, details);
  }
  return { params: parsedParams.data, query: parsedQuery.data, body: bodyValue, headers: headerValues };
}
