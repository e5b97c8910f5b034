import type { ServerResponse } from 'node:http';
import { type JsonContentType, type Reply, writeReply as writeJsonOrHtml } from '../shared/http.js';

export { BodyTooLarge, type Reply, readBody } from '../shared/http.js';

/** X sends `charset=utf-8`; a reply that names its own content type keeps it. */
const JSON_CONTENT_TYPE: JsonContentType = {
  value: 'application/json; charset=utf-8',
  routeMayOverride: true,
};

export function writeReply(response: ServerResponse, reply: Reply): void {
  writeJsonOrHtml(response, reply, JSON_CONTENT_TYPE);
}

/** X's problem answers (twitter.md §5). */
export const problems = {
  unauthorized: (): Reply => ({
    status: 401,
    json: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
  }),
  forbidden: (detail: string): Reply => ({
    status: 403,
    json: {
      title: 'Forbidden',
      type: 'https://api.x.com/2/problems/client-forbidden',
      status: 403,
      detail,
    },
  }),
  duplicate: (): Reply => ({
    status: 403,
    json: {
      detail: 'You are not allowed to create a Tweet with duplicate content.',
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
    },
  }),
  invalid: (message: string, parameters: Record<string, string[]> = {}): Reply => ({
    status: 400,
    json: {
      errors: [{ parameters, message }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: 'https://api.x.com/2/problems/invalid-request',
    },
  }),
  notFound: (detail: string): Reply => ({
    status: 404,
    json: {
      title: 'Not Found Error',
      type: 'https://api.x.com/2/problems/resource-not-found',
      detail,
    },
  }),
  tooManyRequests: (): Reply => ({
    status: 429,
    json: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
  }),
};

/** The token endpoint's OAuth errors (RFC 6749 §5.2), as X answers them (twitter.md §3). */
export function oauthError(status: number, error: string, description: string): Reply {
  return { status, json: { error, error_description: description } };
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
