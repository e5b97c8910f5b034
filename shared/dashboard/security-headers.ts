import { secureHeaders } from 'hono/secure-headers';

/**
 * Every dashboard response: scripts and styles only from the dashboard's own files (no inline
 * script or style, so an injected tag would not run), no framing, no plugins, no `<base>`.
 * `form-action` is left open on purpose: connecting an account posts a form whose answer is a
 * redirect to the network's consent page, and Chrome applies `form-action` to that redirect.
 */
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
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
