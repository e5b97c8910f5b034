import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a route answers; the server writes it after the control surface had its say. */
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
    headers['content-type'] = 'application/json';
    body = JSON.stringify(reply.json);
  } else if (reply.html !== undefined) {
    headers['content-type'] = 'text/html; charset=utf-8';
    body = reply.html;
  }
  response.writeHead(reply.status, headers);
  response.end(body);
}

/** LinkedIn's error body (networks/linkedin.md §8). */
export function linkedInError(
  status: number,
  message: string,
  extra: { serviceErrorCode?: number; code?: string; inputErrors?: { code: string; field?: string }[] } = {},
): Reply {
  return {
    status,
    json: {
      status,
      message,
      ...(extra.serviceErrorCode !== undefined && { serviceErrorCode: extra.serviceErrorCode }),
      ...(extra.code && { code: extra.code }),
      ...(extra.inputErrors && {
        errorDetails: {
          inputErrors: extra.inputErrors.map((error) => ({
            code: error.code,
            description: message,
            ...(error.field && { input: { inputPath: { fieldPath: error.field } } }),
          })),
        },
      }),
    },
  };
}

/** The OAuth endpoints' error body. */
export function oauthError(status: number, error: string, description: string): Reply {
  return { status, json: { error, error_description: description } };
}

export const replies = {
  invalidToken: () =>
    linkedInError(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' }),
  revokedToken: () =>
    linkedInError(401, 'The token used in the request has been revoked by the user', {
      serviceErrorCode: 65601,
      code: 'REVOKED_ACCESS_TOKEN',
    }),
  expiredToken: () =>
    linkedInError(401, 'The token used in the request has expired', {
      serviceErrorCode: 65602,
      code: 'EXPIRED_ACCESS_TOKEN',
    }),
  accessDenied: (what: string) =>
    linkedInError(403, `Not enough permissions to access: ${what}`, {
      serviceErrorCode: 100,
      code: 'ACCESS_DENIED',
    }),
  invalid: (message: string, code = 'INVALID_VALUE', field?: string) =>
    linkedInError(422, message, { inputErrors: [{ code, ...(field && { field }) }] }),
  badRequest: (message: string) => linkedInError(400, message),
  notFound: (message: string) => linkedInError(404, message),
  tooLarge: (message: string) => linkedInError(413, message),
};
