import { type ApiMiddleware, type ApiRequest, stateOf } from '../request-state.js';

/**
 * Registered first, so it runs last on the way out, for answers and errors alike:
 * X-Request-Id on every response, X-RateLimit-* on 2xx (interface 7 and 8.2).
 */
export function responseHeaders(): ApiMiddleware {
  const stamp = (request: ApiRequest) => {
    const response = request.response;
    if (!response) return;
    const state = stateOf(request);
    const headers: Record<string, string | number | boolean> = {
      ...response.headers,
      'X-Request-Id': state.requestId,
    };
    const status = response.statusCode ?? 200;
    if (state.rateLimit && status >= 200 && status < 300) {
      headers['X-RateLimit-Limit'] = String(state.rateLimit.limit);
      headers['X-RateLimit-Remaining'] = String(state.rateLimit.remaining);
      headers['X-RateLimit-Reset'] = String(state.rateLimit.resetEpochSeconds);
    }
    response.headers = headers;
  };
  return {
    before: (request) => {
      stateOf(request);
    },
    after: stamp,
    onError: stamp,
  };
}
