import { AppError, INTERNAL_ERROR_ENVELOPE, toEnvelope } from '../../domain/errors.js';
import { jsonResponse } from '../json-response.js';
import { type ApiMiddleware, stateOf } from '../request-state.js';

export type ErrorLogger = (entry: Record<string, unknown>) => void;

const defaultLogger: ErrorLogger = (entry) => console.error(JSON.stringify(entry));

/**
 * Turns any error into the envelope `{error, message, details?}`. An AppError's code and safe
 * message go out as they are; anything else is logged with the request id and answered with a
 * generic 500 that carries no stack, message or internals.
 */
export function errorEnvelope(log: ErrorLogger = defaultLogger): ApiMiddleware {
  return {
    onError: (request) => {
      const error = request.error;
      if (error instanceof AppError) {
        request.response = jsonResponse(error.status, toEnvelope(error), error.headers);
        return;
      }
      log({
        level: 'error',
        requestId: stateOf(request).requestId,
        route: request.event.routeKey,
        errorName: error?.name,
        errorMessage: error?.message,
        stack: error?.stack,
      });
      request.response = jsonResponse(500, INTERNAL_ERROR_ENVELOPE);
    },
  };
}
