import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a fake route answers; written by the server (index.ts) after the control surface had its say. */
export interface Reply {
  status: number;
  json?: unknown;
  html?: string;
  /** A 302 target. */
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
    headers['content-type'] ??= 'application/json; charset=utf-8';
    body = JSON.stringify(reply.json);
  } else if (reply.html !== undefined) {
    headers['content-type'] = 'text/html; charset=utf-8';
    body = reply.html;
  }
  response.writeHead(reply.status, headers);
  response.end(body);
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
