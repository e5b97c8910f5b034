import type { MiddlewareHandler } from 'hono';
import { requestIdFrom } from '../http/request-id.js';
import type { DashboardDeps, DashboardEnv } from './env.js';

/** Paths whose last segment is a secret (a one-time link's token): logged without it. */
const SECRET_PATH = /^(\/dashboard\/welcome\/)[^/?]+/;

/**
 * First on every request: the deps, a request id (echoed as X-Request-Id) and a logger carrying
 * it; then one log line per request with its status and duration, never a token or a form value.
 */
export function requestContext(deps: DashboardDeps): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    const path = new URL(c.req.url).pathname.replace(SECRET_PATH, '$1…');
    c.set('deps', deps);
    c.set('requestId', requestId);
    c.set('logger', deps.logger.with({ requestId }));
    const started = Date.now();
    await next();
    c.header('X-Request-Id', requestId);
    c.var.logger.info('dashboard request', {
      method: c.req.method,
      path,
      status: c.res.status,
      durationMs: Date.now() - started,
    });
  };
}
