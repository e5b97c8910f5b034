import { callerIds } from '../../pipeline/operation-request.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';
import { makeInvocationLogger } from '../../triggers/invocation-logger.js';
import { type ApiMiddleware, type ApiRequest, stateOf } from '../request-state.js';

/**
 * Registered right after responseHeaders, so its `before` runs first and its `after`/`onError`
 * run once the envelope is set. Gives the request a logger that carries the ids an operator
 * searches by (our X-Request-Id, the Lambda request id, the function, cold start; tenant and
 * workspace once known), writes one line per request with its status and duration, and counts
 * 401s and 429s.
 */
export function requestLog(
  operation: { id: string; rateLimitFamily?: string },
  logger: Logger,
  metrics: Metrics,
): ApiMiddleware {
  // The same function, Lambda request id and cold-start fields as the queue and stream consumers'.
  const invocationLogger = makeInvocationLogger(logger);
  const finish = (request: ApiRequest) => {
    const state = stateOf(request);
    const status = request.response?.statusCode ?? 500;
    const line = (state.logger ?? logger).with(callerIds(state));
    const fields = {
      method: request.event.requestContext?.http?.method,
      route: request.event.routeKey,
      status,
      durationMs: state.startedAt === undefined ? undefined : Math.round(performance.now() - state.startedAt),
    };
    // A 503 is an outage or a missing part, told to the caller as "retry": a warning, not a bug.
    if (status === 503) line.warn('request unavailable', fields);
    else if (status >= 500) line.error('request failed', fields);
    else line.info('request', fields);
    if (status === 401) metrics.count('AuthenticationFailures');
    if (status === 429 && operation.rateLimitFamily)
      metrics.count('RateLimitedRequests', { family: operation.rateLimitFamily });
  };
  return {
    before: (request) => {
      const state = stateOf(request);
      state.startedAt = performance.now();
      state.logger = invocationLogger(request.context).with({
        requestId: state.requestId,
        operation: operation.id,
      });
    },
    after: finish,
    onError: finish,
  };
}
