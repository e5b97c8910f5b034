import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { ErrorEnvelope } from '../../shared/domain/errors.js';

/** An answer the local host gives on its own, before (or instead of) any handler: the error envelope. */
export interface Refusal {
  status: number;
  envelope: ErrorEnvelope;
  headers?: Record<string, string>;
}

/** Node's parser errors (llhttp's `HPE_*` codes) a caller can cause, in words that say what to fix. */
const PARSE_ERRORS: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: 'The request method is not an HTTP method (methods are upper-case, such as GET).',
  HPE_INVALID_URL: 'The request path has a character HTTP does not allow; percent-encode it.',
  HPE_INVALID_HEADER_TOKEN: 'A header name or value has a character HTTP does not allow.',
  HPE_INVALID_CONTENT_LENGTH: 'The Content-Length header is not a number.',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length and Transfer-Encoding were both sent; send one.',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'The chunk extensions of the body are too large.',
  HPE_INVALID_CHUNK_SIZE: 'A chunk size of the chunked body is not a hexadecimal number followed by CRLF.',
};

/**
 * What the server answers to a request Node could not parse or did not receive in time (its
 * `clientError` event): the envelope, never Node's bare 400, 408 or 431.
 */
export function refusalForClientError(error: Error & { code?: string }): Refusal {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      envelope: {
        error: 'request_header_fields_too_large',
        message: `The request headers are larger than ${maxHeaderSize} bytes in all.`,
      },
    };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      envelope: { error: 'request_timeout', message: 'The whole request did not arrive in time.' },
    };
  }
  return {
    status: 400,
    envelope: {
      error: 'INVALID_REQUEST',
      message: PARSE_ERRORS[error.code ?? ''] ?? 'The request is not valid HTTP/1.1.',
    },
  };
}

/**
 * A whole HTTP/1.1 response, for writing straight to a socket (where Node gives no response
 * object): the envelope as JSON, the request id, and `Connection: close`, since after a parse
 * error nothing more can be read from the connection.
 */
export function rawHttpResponse(refusal: Refusal, requestId: string): string {
  const body = JSON.stringify(refusal.envelope);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    ...refusal.headers,
    Connection: 'close',
  };
  const lines = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
