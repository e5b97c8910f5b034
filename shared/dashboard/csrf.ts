import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { readPreSessionCsrf, writePreSessionCsrf } from './cookies.js';
import { CSRF_FIELD } from './csrf-field.js';
import type { DashboardEnv } from './env.js';
import { html } from './html.js';
import { errorPage } from './pages.js';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Sets `csrfToken` for the response's forms (the session's own; before sign-in, a cookie's, the
 * double-submit pattern) and refuses any POST whose form does not carry it: 403, nothing done.
 * Hono's Origin check runs before this; both must pass.
 */
export const csrfProtection: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  const session = c.var.signedIn?.session;
  let expected = session?.csrfToken ?? readPreSessionCsrf(c);
  if (!expected) {
    expected = randomBytes(32).toString('base64url');
    writePreSessionCsrf(c, expected);
  }
  c.set('csrfToken', expected);
  if (c.req.method === 'POST') {
    const form = await c.req.parseBody();
    const given = form[CSRF_FIELD];
    if (typeof given !== 'string' || !sameToken(given, expected)) {
      c.get('logger').info('dashboard: refused a form without a valid CSRF token');
      return errorPage(
        c,
        403,
        'This form has expired',
        html`<p>Reload the page and try again. Nothing was changed.</p>`,
      );
    }
  }
  await next();
};
