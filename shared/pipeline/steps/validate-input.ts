import { InvalidRequestError, type ValidationDetails } from '../../domain/errors.js';
import { isEmptyObject } from '../../http/json-body.js';
import type { Operation, OperationInput } from '../../http/operation.js';
import { toValidationDetails } from '../../http/validation-details.js';
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
  const parsedParams = params.safeParse(request.params);
  if (!parsedParams.success) Object.assign(details, toValidationDetails(parsedParams.error, 'params'));
  const parsedQuery = query.safeParse(request.query);
  if (!parsedQuery.success) Object.assign(details, toValidationDetails(parsedQuery.error, 'query'));
  let headerValues: Record<string, unknown> = {};
  if (headers) {
    const parsedHeaders = headers.safeParse(request.headers);
    if (parsedHeaders.success) headerValues = parsedHeaders.data;
    else Object.assign(details, toValidationDetails(parsedHeaders.error, 'headers'));
  }
  let bodyValue: unknown;
  if (body) {
    const parsedBody = body.safeParse(request.readBody());
    if (parsedBody.success) bodyValue = parsedBody.data;
    else Object.assign(details, toValidationDetails(parsedBody.error, 'body'));
  } else if (carriesBody(request)) {
    details.body = [...(details.body ?? []), NO_BODY_TAKEN];
  }
  if (Object.keys(details).length > 0 || !parsedParams.success || !parsedQuery.success) {
    throw new InvalidRequestError(SCHEMA_MISMATCH, details);
  }
  return { params: parsedParams.data, query: parsedQuery.data, body: bodyValue, headers: headerValues };
}
