import type { MiddlewareHandler } from 'hono';
import { readSessionCookie } from './cookies.js';
import { DASHBOARD_BASE, type DashboardEnv } from './env.js';

/** Sets `signedIn` when the request carries a live session; never refuses by itself. */
export const loadSession: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  const token = readSessionCookie(c);
  const signedIn = token ? await c.get('deps').auth.resolveSession(token) : undefined;
  if (signedIn) {
    c.set('signedIn', signedIn);
    c.set(
      'logger',
      c.get('logger').with({ tenantId: signedIn.tenant.tenantId, userId: signedIn.user.userId }),
    );
  }
  await next();
};

/** A dashboard path to come back to after signing in; anything else (another site) is dropped. */
export function safeNext(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return value.startsWith(`${DASHBOARD_BASE}/`) && !value.startsWith('//') && !value.includes('\\')
    ? value
    : undefined;
}

/** Sends a request without a session to the sign-in page (303), remembering where it was going. */
export const requireSignedIn: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  if (c.var.signedIn) return next();
  const url = new URL(c.req.url);
  const next_ = c.req.method === 'GET' ? safeNext(url.pathname + url.search) : undefined;
  const target = `${DASHBOARD_BASE}/sign-in${next_ ? `?next=${encodeURIComponent(next_)}` : ''}`;
  return c.redirect(target, 303);
};
