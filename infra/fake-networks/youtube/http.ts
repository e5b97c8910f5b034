import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a route answers; the server writes it after the control surface had its say. */
export interface Reply {
  status: number;
  json?: unknown;
  html?: string;
  location?: string;
  headers?: Record<string, string>;
}

export class BodyTooLarge extends Error {}

export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.removeAllListeners('data');
        request.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function writeReply(response: ServerResponse, reply: Reply): void {
  if (response.destroyed || response.headersSent) return;
  const headers: Record<string, string> = { ...reply.headers };
  let body: string | undefined;
  if (reply.location) headers.location = reply.location;
  if (reply.json !== undefined) {
    headers['content-type'] = 'application/json; charset=UTF-8';
    body = JSON.stringify(reply.json);
  } else if (reply.html !== undefined) {
    headers['content-type'] = 'text/html; charset=utf-8';
    body = reply.html;
  }
  response.writeHead(reply.status, headers);
  response.end(body);
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
  invalid: (reason: string, message: string) => googleError(400, reason, message, 'youtube.video'),
  notFound: (message = 'Not Found') => googleError(404, 'notFound', message, 'global'),
};
