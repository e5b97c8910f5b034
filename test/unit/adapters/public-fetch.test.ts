import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  Lookup,
  RequestFunction,
  ResolvedAddress,
} from '../../../shared/adapters/http/pinned-connection.js';
import {
  makePublicOnlyFetch,
  PublicAddressRefusedError,
  type PublicOnlyFetchOptions,
} from '../../../shared/adapters/http/public-fetch.js';
import { isPublicAddress } from '../../../shared/domain/address-ranges.js';
import {
  NoAnswerError,
  networkFetch,
  RequestNotSentError,
} from '../../../shared/networks/http/network-fetch.js';
import { makeSelfSigned } from '../../support/self-signed.js';

/**
 * The public-only fetch against a real HTTPS server on 127.0.0.1 with a certificate for
 * `pds.test`, reached through an injected lookup and a policy that also allows that loopback
 * address (as the webhook sender's tests do); every other name resolves to what a DID document's
 * author could point it at.
 */

const tls = makeSelfSigned(['pds.test']);

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  servername?: string | false | null;
}
const received: Received[] = [];

function route(req: IncomingMessage, res: ServerResponse, body: Buffer) {
  switch (new URL(req.url ?? '/', 'https://pds.test').pathname) {
    case '/json':
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    case '/echo':
      return res.writeHead(201, { 'content-type': 'application/octet-stream' }).end(body);
    case '/gzip':
      return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('squeezed'));
    case '/redirect':
      return res.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data' }).end();
    case '/empty':
      return res.writeHead(204).end();
    case '/error':
      return res.writeHead(503, { 'retry-after': '7' }).end('down');
    case '/stream':
      res.writeHead(200);
      res.write('first;');
      setTimeout(() => res.end('second'), 50);
      return;
    case '/hang':
      return; // never answers
    default:
      return res.writeHead(404).end();
  }
}

const server = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    received.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      servername: (req.socket as Partial<TLSSocket>).servername,
    });
    route(req, res, body);
  });
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const ZONE: Record<string, ResolvedAddress[]> = {
  'pds.test': [{ address: '127.0.0.1', family: 4 }],
  'private.test': [{ address: '10.0.0.1', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'loopback6.test': [{ address: '::1', family: 6 }],
  'mixed.test': [
    { address: '127.0.0.1', family: 4 },
    { address: '169.254.169.254', family: 4 },
  ],
};

const lookupZone = vi.fn<Lookup>(async (hostname) => {
  const answer = ZONE[hostname];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
});

/** The production policy, plus the test server's own loopback address. */
const testFetch = (overrides: PublicOnlyFetchOptions = {}) =>
  makePublicOnlyFetch({
    lookup: lookupZone,
    isAllowedAddress: (address) => address === '127.0.0.1' || isPublicAddress(address),
    ca: tls.cert,
    ...overrides,
  });

const at = (path: string) => `https://pds.test:${port}${path}`;

describe('makePublicOnlyFetch: refused before anything is sent', () => {
  /** A request function that records every connection it would open. */
  const opened = vi.fn<RequestFunction>(() => {
    throw new Error('no connection may be opened');
  });
  const production = makePublicOnlyFetch({ lookup: lookupZone, httpsRequest: opened, httpRequest: opened });

  it.each([
    ['a name resolving to 10.0.0.1', 'https://private.test/xrpc/x'],
    ['a name resolving to the metadata address', 'https://metadata.test/latest/meta-data'],
    ['a name resolving to ::1', 'https://loopback6.test/'],
    ['a name with one public-looking and one metadata address', 'https://mixed.test/'],
    ['a literal private address', 'https://10.0.0.1/'],
    ['a literal metadata address', 'https://169.254.169.254/'],
    ['a literal IPv6 loopback', 'https://[::1]/'],
    ['loopback by name under the production policy', 'https://pds.test/'],
  ])('%s', async (_, url) => {
    const error = await production(url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PublicAddressRefusedError);
    expect((error as PublicAddressRefusedError).refusal).toBe('address_not_public');
    // No address in the message: it may reach a customer.
    expect((error as Error).message).not.toMatch(/10\.0\.0\.1|169\.254|::1|127\.0\.0\.1/);
    expect(opened).not.toHaveBeenCalled();
  });

  it('refuses plain http and credentials unless allowed', async () => {
    await expect(production('http://pds.test/')).rejects.toMatchObject({ refusal: 'scheme' });
    await expect(production('https://user:pw@pds.test/')).rejects.toMatchObject({ refusal: 'credentials' });
    expect(opened).not.toHaveBeenCalled();
  });

  it('is a refusal networkFetch passes on as the cause, never a sent request', async () => {
    const error = await networkFetch(
      'https://private.test/',
      { signal: AbortSignal.timeout(1000) },
      production,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoAnswerError);
    expect((error as NoAnswerError).cause).toBeInstanceOf(PublicAddressRefusedError);
  });

  it('a name that does not resolve is not sent (ENOTFOUND)', async () => {
    const error = await networkFetch(
      'https://nowhere.test/',
      { signal: AbortSignal.timeout(1000) },
      production,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestNotSentError);
    expect(opened).not.toHaveBeenCalled();
  });
});

describe('makePublicOnlyFetch: an allowed name, connected at its pinned address', () => {
  it('resolves once, connects to the pinned address with the name for SNI and Host, answers a Response', async () => {
    lookupZone.mockClear();
    const response = await testFetch()(at('/json'), { headers: { accept: 'application/json' } });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ ok: true });
    expect(lookupZone).toHaveBeenCalledTimes(1);
    const last = received.at(-1);
    expect(last?.servername).toBe('pds.test');
    expect(last?.headers.host).toBe(`pds.test:${port}`);
    expect(last?.headers.accept).toBe('application/json');
  });

  it('sends a byte body and a streamed body', async () => {
    const fetchImpl = testFetch();
    const bytes = await fetchImpl(at('/echo'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(bytes.status).toBe(201);
    expect(await bytes.text()).toBe('{"a":1}');
    expect(received.at(-1)?.headers['content-length']).toBe('7');

    const parts = ['chunk one, ', 'chunk two'];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const streamed = await fetchImpl(at('/echo'), {
      method: 'POST',
      headers: { 'content-length': '20' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await streamed.text()).toBe('chunk one, chunk two');
    expect(received.at(-1)?.headers['content-length']).toBe('20');
  });

  it('streams the response body as it arrives, and decodes gzip', async () => {
    const fetchImpl = testFetch();
    const response = await fetchImpl(at('/stream'));
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toBe('first;');
    let rest = '';
    for (let next = await reader?.read(); next && !next.done; next = await reader?.read())
      rest += new TextDecoder().decode(next.value);
    expect(rest).toBe('second');
    expect(await (await fetchImpl(at('/gzip'))).text()).toBe('squeezed');
  });

  it('answers errors and empty answers as Responses', async () => {
    const fetchImpl = testFetch();
    const down = await fetchImpl(at('/error'));
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('7');
    expect(await down.text()).toBe('down');
    const empty = await fetchImpl(at('/empty'), { method: 'POST', body: 'x' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('never follows a redirect: the 3xx is the answer, and redirect: error throws', async () => {
    const fetchImpl = testFetch();
    const before = received.length;
    const response = await fetchImpl(at('/redirect'));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://169.254.169.254/latest/meta-data');
    await expect(fetchImpl(at('/redirect'), { redirect: 'error' })).rejects.toThrow(TypeError);
    expect(received.length).toBe(before + 2);
  });

  it('honours the AbortSignal, before and while waiting', async () => {
    const fetchImpl = testFetch();
    const gone = AbortSignal.abort(new Error('cancelled'));
    await expect(fetchImpl(at('/json'), { signal: gone })).rejects.toThrow('cancelled');
    const started = Date.now();
    await expect(fetchImpl(at('/hang'), { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('the AbortSignal also ends a body being streamed', async () => {
    const controller = new AbortController();
    const response = await testFetch()(at('/stream'), { signal: controller.signal });
    const reader = response.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe('first;');
    controller.abort(new Error('stop reading'));
    await expect(reader?.read()).rejects.toBeDefined();
  });

  it('a certificate that does not name the host is not trusted (connected by address, checked by name)', async () => {
    ZONE['other.test'] = [{ address: '127.0.0.1', family: 4 }];
    const error = await networkFetch(
      `https://other.test:${port}/json`,
      { signal: AbortSignal.timeout(2000) },
      testFetch(),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestNotSentError);
  });
});
