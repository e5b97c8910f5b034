import { asServiceUnavailable, outageSummary } from '../../adapters/aws/dependency-outage.js';
import { AppError, INTERNAL_ERROR_ENVELOPE, toEnvelope } from '../../domain/errors.js';
import { type Logger, silentLogger } from '../../ports/logger.js';
import { jsonResponse } from '../json-response.js';
import { type ApiMiddleware, stateOf } from '../request-state.js';

/**
 * Turns any error into the envelope `{error, message, details?}`. An AppError's code and safe
 * message go out as they are. A dependency outage (storage throttled, failing or unreachable) is a
 * 503 service_unavailable with Retry-After: it passes by itself, and the caller should retry, not
 * report a bug. Anything else is logged (through the request's logger, so with its ids) and
 * answered with a generic 500 that carries no stack, message or internals.
 */
export function errorEnvelope(logger: Logger = silentLogger): ApiMiddleware {
  return {
    onError: (request) => {
      const error = request.error;
      if (error instanceof AppError) {
        request.response = jsonResponse(error.status, toEnvelope(error), error.headers);
        return;
      }
      const log = stateOf(request).logger ?? logger;
      const outage = asServiceUnavailable(error);
      if (outage) {
        log.warn('dependency unavailable', { route: request.event.routeKey, ...outageSummary(error) });
        request.response = jsonResponse(outage.status, toEnvelope(outage), outage.headers);
        return;
      }
      log.error('unexpected error', { route: request.event.routeKey, error });
      request.response = jsonResponse(500, INTERNAL_ERROR_ENVELOPE);
    },
  };
}
