import type { ServerResponse } from 'node:http';
import { type JsonContentType, type Reply, writeReply as writeJsonOrHtml } from '../shared/http.js';

export { BodyTooLarge, type Reply, readBody } from '../shared/http.js';

/** Google spells it `charset=UTF-8`, whatever a route set. */
const JSON_CONTENT_TYPE: JsonContentType = {
  value: 'application/json; charset=UTF-8',
  routeMayOverride: false,
};

export function writeReply(response: ServerResponse, reply: Reply): void {
  writeJsonOrHtml(response, reply, JSON_CONTENT_TYPE);
}

/** Google's API error body (youtube.md §7): branch on `errors[0].reason`. */
export function googleError(status: number, reason: string, message: string, domain = 'youtube.api'): Reply {
  return { status, json: { error: { code: status, message, errors: [{ message, domain, reason }] } } };
}

/** The OAuth endpoints' error body. */
export function oauthError(status: number, error: string, description: string): Reply {
  return { status, json: { error, error_description: description } };
}

export const googleErrors = {
  unauthorized: () =>
    googleError(401, 'authError', 'Request had invalid authentication credentials.', 'global'),
  insufficientScope: () =>
    googleError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global'),
  quotaExceeded: () =>
    googleError(
      403,
      'quotaExceeded',
      'The request cannot be completed because you have exceeded your quota.',
      'youtube.quota',
    ),
  uploadLimitExceeded: () =>
    googleError(
      400,
      'uploadLimitExceeded',
      'The user has exceeded the number of videos they may upload.',
      'youtube.video',
    ),
  /**
   * Google's short-term throttling (per user or per project a minute, not the daily quota); it
   * usually names no wait, a test may add a Retry-After.
   */
  rateLimited: (retryAfterSeconds?: number): Reply => ({
    ...googleError(
      403,
      'rateLimitExceeded',
      'The request cannot be completed due to rate limiting.',
      'usageLimits',
    ),
    ...(retryAfterSeconds !== undefined && { headers: { 'retry-after': String(retryAfterSeconds) } }),
  }),
  invalid: (reason: string, message: string) => googleError(400, reason, message, 'youtube.video'),
  notFound: (message = 'Not Found') => googleError(404, 'notFound', message, 'global'),
};
