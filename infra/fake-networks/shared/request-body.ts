import type { IncomingMessage } from 'node:http';
import { BodyTooLarge, type Reply, readBody } from './http.js';

/**
 * A Graph-API-style fake's request body: the bytes, or what to do instead: past `maxBytes` a 413
 * to write, a broken upload the connection dropped.
 */
export async function readGraphBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<{ body: Buffer } | { refusal: Reply } | { dropped: true }> {
  try {
    return { body: await readBody(request, maxBytes) };
  } catch (error) {
    if (error instanceof BodyTooLarge)
      return { refusal: { status: 413, json: { error: { message: 'Too large', code: 100 } } } };
    request.socket.destroy();
    return { dropped: true };
  }
}

/** What Graph reads a call's parameters from: the query, then a form body's fields (these win). */
export function queryThenForm(url: URL, contentType: string | undefined, body: Buffer): URLSearchParams {
  const fields = new URLSearchParams(url.searchParams);
  if ((contentType ?? '').startsWith('application/x-www-form-urlencoded')) {
    for (const [name, value] of new URLSearchParams(body.toString('utf8'))) fields.set(name, value);
  }
  return fields;
}
