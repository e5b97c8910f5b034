import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { type RawResponse, sendRaw } from './support/raw-http.js';

/** Every answer, however broken the request, is the envelope with a request id, and the last one. */
function expectClosingEnvelope(responses: RawResponse[], status: number, code: string) {
  expect(responses).toHaveLength(1);
  const [response] = responses;
  expect(response?.status).toBe(status);
  expect(response?.headers['content-type']).toMatch(/^application\/json/);
  expect(response?.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  expect(response?.headers.connection).toBe('close');
  expect(JSON.parse(response?.body ?? '')).toEqual({ error: code, message: expect.any(String) });
  return response;
}

/**
 * A body that never completes is answered, not held open: sendRaw resolves only once the server
 * has closed the connection. The host's body time-out is short here so nobody waits 30 s.
 */
describe('a request body that never completes, on the local host', () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost({ bodyTimeoutMs: 300 });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('answers a body shorter than its Content-Length with a 408 envelope after the body time-out, without a key', async () => {
    const responses = await sendRaw(
      host.port,
      'POST /v1/workspaces/ws_1/posts HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"a":',
    );
    const response = expectClosingEnvelope(responses, 408, 'request_timeout');
    expect(JSON.parse(response?.body ?? '').message).toMatch(/body/);
  });

  it('answers an incomplete body with a 408 envelope on the MCP and dashboard routes too', async () => {
    for (const path of ['/mcp', '/dashboard/sign-in']) {
      const responses = await sendRaw(
        host.port,
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nhello`,
      );
      expectClosingEnvelope(responses, 408, 'request_timeout');
    }
  });

  it('answers a chunk whose size is not hexadecimal with a 400 envelope carrying the request’s own id', async () => {
    const responses = await sendRaw(
      host.port,
      'POST /v1/workspaces/ws_1/posts HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: probe-bad-chunk-1\r\n' +
        'Transfer-Encoding: chunked\r\n\r\nZZZ\r\n',
    );
    const response = expectClosingEnvelope(responses, 400, 'INVALID_REQUEST');
    expect(response?.headers['x-request-id']).toBe('probe-bad-chunk-1');
    expect(JSON.parse(response?.body ?? '').message).toMatch(/chunk/);
  });

  it('still answers a complete body, in time, as before', async () => {
    const responses = await sendRaw(
      host.port,
      'POST /v1/workspaces/ws_1/posts HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Connection: close\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(responses.map((response) => response.status)).toEqual([401]);
  });
});
