import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a route answers; the server writes it after the control surface had its say. */
export interface Reply {
  status: number;
  json?: unknown;
  html?: string;
  location?: string;
}

export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) over = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(over ? 'too_large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function writeReply(response: ServerResponse, reply: Reply): void {
  if (response.destroyed || response.headersSent) return;
  const headers: Record<string, string> = {};
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

let logCounter = 0;

/** TikTok's envelope: `{data, error: {code, message, log_id}}`. */
export function envelope(status: number, code: string, message: string, data: unknown = {}): Reply {
  logCounter += 1;
  return { status, json: { data, error: { code, message, log_id: `fake${Date.now()}${logCounter}` } } };
}

export const ok = (data: unknown): Reply => envelope(200, 'ok', '', data);

/** The OAuth endpoints' error body. */
export function oauthError(status: number, error: string, description: string): Reply {
  return { status, json: { error, error_description: description, log_id: `fake${Date.now()}` } };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
