import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify } from 'lossless-json';
import { type JsonContentType, type Reply, writeReply as writeJsonOrHtml } from '../shared/http.js';

export type { Reply } from '../shared/http.js';

/** TikTok answers JSON as plain `application/json`. */
const JSON_CONTENT_TYPE: JsonContentType = { value: 'application/json', routeMayOverride: false };

/**
 * Unlike the shared readBody (which stops reading at the limit and rejects), this reads the whole
 * body before saying it was too large, so the client always gets to finish sending.
 */
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

/**
 * JSON is written with lossless-json, so a bigint in a reply goes out as a bare JSON number of
 * any size, as TikTok sends its int64 post ids.
 */
export function writeReply(response: ServerResponse, reply: Reply): void {
  if (reply.json === undefined) {
    writeJsonOrHtml(response, reply, JSON_CONTENT_TYPE);
    return;
  }
  if (response.destroyed || response.headersSent) return;
  response.writeHead(reply.status, {
    ...reply.headers,
    ...(reply.location && { location: reply.location }),
    'content-type': JSON_CONTENT_TYPE.value,
  });
  response.end(stringify(reply.json));
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
