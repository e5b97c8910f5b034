import type { MiddlewareHandler } from 'hono';
import { requestIdFrom } from '../http/request-id.js';
import type { DashboardEnv, DashboardStart } from './env.js';

/** Paths whose last segment is a secret (a one-time link's token): logged without it. */
const SECRET_PATH = /^(\/dashboard\/welcome\/)[^/?]+/;

/**
 * First on every request: the settings and the deps' loader, a request id (echoed as
 * X-Request-Id) and a logger carrying it; then one log line per request with its status and
 * duration, never a token or a form value.
 */
export function requestContext(start: DashboardStart): MiddlewareHandler<DashboardEnv> {
  const { loadDeps, ...settings } = start;
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    const path = new URL(c.req.url).pathname.replace(SECRET_PATH, '$1…');
    c.set('settings', settings);
    c.set('loadDeps', loadDeps);
    c.set('requestId', requestId);
    c.set('logger', settings.logger.with({ requestId }));
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
