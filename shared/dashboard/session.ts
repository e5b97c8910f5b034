import type { MiddlewareHandler } from 'hono';
import { readSessionCookie } from './cookies.js';
import { depsOf } from './deps-on-demand.js';
import { DASHBOARD_BASE, type DashboardEnv } from './env.js';

/**
 * Sets `signedIn` when the request carries a live session; never refuses by itself. Only a
 * session cookie makes it build the deps: a browser without one costs no store.
 */
export const loadSession: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  const token = readSessionCookie(c);
  const signedIn = token ? await (await depsOf(c)).auth.resolveSession(token) : undefined;
  if (signedIn) {
    c.set('signedIn', signedIn);
    c.set(
      'logger',
      c.get('logger').with({ tenantId: signedIn.tenant.tenantId, userId: signedIn.user.userId }),
    );
  }
  await next();
};

/** Stands in for this site's own address while a path is resolved; never reaches a browser. */
const THIS_SITE = 'https://dashboard.invalid';

/** A control character: C0, DEL or C1 (Unicode category Cc). */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * A dashboard path to come back to after signing in, as the browser would resolve it (dot segments
 * gone, what a URL cannot hold percent-encoded, so always a valid Location); anything else
 * (another site, a path that leaves the dashboard once resolved, a control character such as a
 * line break) is dropped and the person goes to the default page.
 */
export function safeNext(value: string | undefined): string | undefined {
  if (!value || CONTROL_CHARACTER.test(value) || value.includes('\\')) return undefined;
  if (!value.startsWith(`${DASHBOARD_BASE}/`)) return undefined;
  let url: URL;
  try {
    url = new URL(value, THIS_SITE);
  } catch {
    return undefined;
  }
  if (url.origin !== THIS_SITE || !url.pathname.startsWith(`${DASHBOARD_BASE}/`)) return undefined;
  return `${url.pathname}${url.search}`;
}

/** Sends a request without a session to the sign-in page (303), remembering where it was going. */
export const requireSignedIn: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  if (c.var.signedIn) return next();
  const url = new URL(c.req.url);
  const next_ = c.req.method === 'GET' ? safeNext(url.pathname + url.search) : undefined;
  const target = `${DASHBOARD_BASE}/sign-in${next_ ? `?next=${encodeURIComponent(next_)}` : ''}`;
  return c.redirect(target, 303);
};
