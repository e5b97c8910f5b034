import type { Context } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { DashboardEnv } from './env.js';

/**
 * `connect-src`: the dashboard itself, and the media storage's origin where there is one: the
 * composer's script PUTs a file straight to a presigned URL there (docs/dashboard.md, "Upload").
 * Nothing else, so an injected script could send nowhere but to our own origins.
 */
export function connectSources(c: Context<DashboardEnv>): string {
  const storage = c.var.settings?.mediaStorageOrigin;
  return storage ? `'self' ${storage}` : "'self'";
}

/**
 * Every dashboard response: scripts and styles only from the dashboard's own files (no inline
 * script or style, so an injected tag would not run), no framing, no plugins, no `<base>`.
 * `form-action` is left open on purpose: connecting an account posts a form whose answer is a
 * redirect to the network's consent page, and Chrome applies `form-action` to that redirect.
 * Runs after the request context, which sets the settings `connect-src` reads.
 */
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: [(c) => connectSources(c as Context<DashboardEnv>)],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
  },
  xFrameOptions: 'DENY',
  referrerPolicy: 'same-origin',
  strictTransportSecurity: 'max-age=31536000; includeSubDomains',
  crossOriginResourcePolicy: 'same-origin',
  crossOriginOpenerPolicy: 'same-origin',
});
