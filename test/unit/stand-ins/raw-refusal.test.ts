import { maxHeaderSize } from 'node:http';
import { describe, expect, it } from 'vitest';
import { rawHttpResponse, refusalForClientError } from '../../../infra/local/raw-refusal.js';

const clientError = (code: string) => Object.assign(new Error('Parse Error'), { code });

describe('refusalForClientError (what the local host answers instead of Node)', () => {
  it('header overflow: 431 naming the limit', () => {
    expect(refusalForClientError(clientError('HPE_HEADER_OVERFLOW'))).toEqual({
      status: 431,
      envelope: {
        error: 'request_header_fields_too_large',
        message: `The request headers are larger than ${maxHeaderSize} bytes in all.`,
      },
    });
  });

  it('a request that did not arrive in time: 408', () => {
    expect(refusalForClientError(clientError('ERR_HTTP_REQUEST_TIMEOUT'))).toMatchObject({
      status: 408,
      envelope: { error: 'request_timeout' },
    });
  });

  it.each(['HPE_INVALID_METHOD', 'HPE_INVALID_URL', 'HPE_CHUNK_EXTENSIONS_OVERFLOW', 'HPE_SOMETHING_NEW'])(
    '%s: 400 INVALID_REQUEST in our words, never the parser’s',
    (code) => {
      const refusal = refusalForClientError(clientError(code));
      expect(refusal.status).toBe(400);
      expect(refusal.envelope.error).toBe('INVALID_REQUEST');
      expect(refusal.envelope.message).not.toMatch(/Parse Error|HPE_/);
    },
  );
});

describe('rawHttpResponse', () => {
  it('is a whole HTTP/1.1 response: status line, JSON headers, request id, close, exact length', () => {
    const raw = rawHttpResponse(
      { status: 400, envelope: { error: 'INVALID_REQUEST', message: 'Bad — bytes' } },
      'req_12345678',
    );
    const [head, body] = raw.split('\r\n\r\n');
    expect(head?.split('\r\n')).toEqual([
      'HTTP/1.1 400 Bad Request',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body ?? '')}`,
      'X-Request-Id: req_12345678',
      'Connection: close',
    ]);
    expect(JSON.parse(body ?? '')).toEqual({ error: 'INVALID_REQUEST', message: 'Bad — bytes' });
  });
});
