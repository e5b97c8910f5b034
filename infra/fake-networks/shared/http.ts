import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a fake route answers; the server writes it after the control surface had its say. */
export interface Reply {
  status: number;
  json?: unknown;
  html?: string;
  /** A 302 target. */
  location?: string;
  headers?: Record<string, string>;
}

/**
 * The Content-Type a network sends with its JSON answers. Networks differ in the exact spelling
 * (clients and tests compare it), and in whether a route's own content-type header is kept.
 */
export interface JsonContentType {
  value: string;
  /** True: a content-type in the reply's headers wins; false: `value` always does. */
  routeMayOverride: boolean;
}

export class BodyTooLarge extends Error {}

/** The whole body; past `maxBytes` it stops reading, drains the rest and rejects with BodyTooLarge. */
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

/** Writes `reply` unless the client is gone or an answer already started. */
export function writeReply(response: ServerResponse, reply: Reply, jsonContentType: JsonContentType): void {
  if (response.destroyed || response.headersSent) return;
  const headers: Record<string, string> = { ...reply.headers };
  let body: string | undefined;
  if (reply.location) headers.location = reply.location;
  if (reply.json !== undefined) {
    if (jsonContentType.routeMayOverride) headers['content-type'] ??= jsonContentType.value;
    else headers['content-type'] = jsonContentType.value;
    body = JSON.stringify(reply.json);
  } else if (reply.html !== undefined) {
    headers['content-type'] = 'text/html; charset=utf-8';
    body = reply.html;
  }
  response.writeHead(reply.status, headers);
  response.end(body);
}
