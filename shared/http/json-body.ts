import { InvalidRequestError, UnsupportedMediaTypeError } from '../domain/errors.js';
import { headerOf, isJsonContentType, mediaTypeOf } from './content-type.js';
import type { ApiEvent } from './request-state.js';

/**
 * A body must say it is JSON (`application/json` or `application/<x>+json`, any charset or other
 * parameter): anything else, or no Content-Type at all, is 415. An empty body is left to the schema.
 */
function requireJsonContentType(event: ApiEvent): void {
  if (event.body === undefined || event.body === '') return;
  const contentType = headerOf(event.headers, 'content-type');
  if (contentType === undefined || !isJsonContentType(contentType)) {
    throw new UnsupportedMediaTypeError(contentType && mediaTypeOf(contentType).slice(0, 100));
  }
}

/** The body's text, decoded when API Gateway handed it over in base64; undefined when empty. */
export function bodyText(event: ApiEvent): string | undefined {
  if (event.body === undefined || event.body === '') return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/** The event's body as a JSON value (undefined when empty): 415 unless declared JSON, 400 if malformed. */
export function readJsonBody(event: ApiEvent): unknown {
  requireJsonContentType(event);
  const text = bodyText(event);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError('The request body is not valid JSON.', { body: ['Malformed JSON.'] });
  }
}

/**
 * Whether the event carries a body other than nothing or `{}`, whatever its Content-Type: for an
 * operation that takes no body, which refuses any other (400) without reading it as JSON.
 */
export function carriesBody(event: ApiEvent): boolean {
  const text = bodyText(event)?.trim();
  if (!text) return false;
  try {
    return !isEmptyObject(JSON.parse(text));
  } catch {
    return true;
  }
}

/** `{}`: what a client that always sends a JSON body sends when there is nothing to say. */
export function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}
