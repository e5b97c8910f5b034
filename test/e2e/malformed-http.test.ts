import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { type RawResponse, sendRaw } from './support/raw-http.js';

/** Every answer, however broken the request, is the envelope with a request id. */
function expectRawEnvelope(response: RawResponse | undefined, status: number, code: string) {
  expect(response?.status).toBe(status);
  expect(response?.headers['content-type']).toMatch(/^application\/json/);
  expect(response?.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  const body = JSON.parse(response?.body ?? '') as Record<string, unknown>;
  expect(body).toEqual({ error: code, message: expect.any(String) });
  return body;
}

describe('malformed HTTP on the local host', () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.stop();
  });

  it('answers a raw non-ASCII byte in the path with a 400 envelope', async () => {
    const request = Buffer.concat([
      Buffer.from('GET /v1/workspaces/'),
      Buffer.from([0xff, 0xc3, 0xa9]),
      Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n'),
    ]);
    const [response, ...more] = await sendRaw(host.port, request);
    expectRawEnvelope(response, 400, 'INVALID_REQUEST');
    expect(response?.headers.connection).toBe('close');
    expect(more).toEqual([]);
  });

  it('answers a lower-case method with a 400 envelope', async () => {
    const [response] = await sendRaw(host.port, 'get /v1/workspaces HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const body = expectRawEnvelope(response, 400, 'INVALID_REQUEST');
    expect(body.message).toMatch(/method/);
  });

  it('answers a control character in a header value with a 400 envelope', async () => {
    const [response] = await sendRaw(
      host.port,
      'GET /v1/workspaces HTTP/1.1\r\nHost: localhost\r\nX-Note: a\x01b\r\n\r\n',
    );
    expectRawEnvelope(response, 400, 'INVALID_REQUEST');
  });

  it('answers the request, then the bytes past its Content-Length, each with an envelope', async () => {
    const responses = await sendRaw(
      host.port,
      'GET /v1/workspaces HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 2\r\n\r\n{}garbage after the body\r\n\r\n',
    );
    expect(responses).toHaveLength(2);
    expectRawEnvelope(responses[0], 401, 'unauthorized');
    expectRawEnvelope(responses[1], 400, 'INVALID_REQUEST');
    expect(responses[1]?.headers['x-request-id']).not.toBe(responses[0]?.headers['x-request-id']);
  });

  it('answers a 20 KB header with a 431 envelope', async () => {
    const [response] = await sendRaw(
      host.port,
      `GET /v1/workspaces HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectRawEnvelope(response, 431, 'request_header_fields_too_large');
  });

  it('answers an HTTP/1.1 request without Host with a 400 envelope (not Node’s bare one)', async () => {
    const [response] = await sendRaw(host.port, 'GET /v1/workspaces HTTP/1.1\r\n\r\n');
    expectRawEnvelope(response, 400, 'INVALID_REQUEST');
  });

  it('answers an unknown Expect with a 417 envelope (not Node’s bare one)', async () => {
    const [response] = await sendRaw(
      host.port,
      'GET /v1/workspaces HTTP/1.1\r\nHost: localhost\r\nExpect: the-moon\r\n\r\n',
    );
    expectRawEnvelope(response, 417, 'expectation_failed');
  });

  it('answers CONNECT with a 405 envelope instead of dropping the connection', async () => {
    const [response] = await sendRaw(
      host.port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n',
    );
    expectRawEnvelope(response, 405, 'method_not_allowed');
  });

  it('answers a request target that is not a path with a 400 envelope', async () => {
    const [response] = await sendRaw(host.port, 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expectRawEnvelope(response, 400, 'INVALID_REQUEST');
  });

  it('routes a path that starts with // as a path, not as a host name', async () => {
    // Read as a URL relative to a base, `//x/v1/workspaces` would be host x, path /v1/workspaces.
    const [response] = await sendRaw(
      host.port,
      'GET //x/v1/workspaces HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expectRawEnvelope(response, 404, 'not_found');
  });

  it('logs each refusal through the logger, with its request id', async () => {
    const [response] = await sendRaw(host.port, 'get / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(host.logs).toContainEqual({
      level: 'info',
      message: 'local host: refused a request it could not read',
      fields: { requestId: response?.headers['x-request-id'], status: 400, error: 'INVALID_REQUEST' },
    });
  });
});
