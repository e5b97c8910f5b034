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
    headers['content-type'] = 'application/json';
    body = JSON.stringify(reply.json);
  } else if (reply.html !== undefined) {
    headers['content-type'] = 'text/html; charset=utf-8';
    body = reply.html;
  }
  response.writeHead(reply.status, headers);
  response.end(body);
}

/** The Graph API's error body (instagram.md §5); token errors come as HTTP 400, as Meta's often do. */
export function graphError(
  code: number,
  message: string,
  options: { subcode?: number; status?: number; transient?: boolean; headers?: Record<string, string> } = {},
): Reply {
  return {
    status: options.status ?? (code === 4 || code === 17 || code === 32 || code === 613 ? 429 : 400),
    json: {
      error: {
        message,
        type: 'OAuthException',
        code,
        ...(options.subcode !== undefined && { error_subcode: options.subcode }),
        is_transient: options.transient ?? false,
        fbtrace_id: 'AfakeTraceId',
      },
    },
    ...(options.headers && { headers: options.headers }),
  };
}

/** api.instagram.com's OAuth error body (its own shape, not the Graph one). */
export function oauthError(message: string): Reply {
  return { status: 400, json: { error_type: 'OAuthException', code: 400, error_message: message } };
}

export const replies = {
  invalidToken: () => graphError(190, 'Invalid OAuth access token - Cannot parse access token'),
  expiredToken: () =>
    graphError(190, 'Error validating access token: Session has expired.', { subcode: 463 }),
  revokedToken: () =>
    graphError(190, 'Error validating access token: The user has not authorized application.', {
      subcode: 458,
    }),
  badParameter: (message: string) => graphError(100, message),
  notFound: (id: string) =>
    graphError(100, `Unsupported get request. Object with ID '${id}' does not exist.`, { subcode: 33 }),
};
