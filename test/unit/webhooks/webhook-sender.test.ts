import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lookup, ResolvedAddress } from '../../../shared/adapters/http/pinned-connection.js';
import {
  makeWebhookSender,
  type WebhookSenderOptions,
} from '../../../shared/adapters/http/webhook-sender.js';
import { isPublicAddress } from '../../../shared/domain/address-ranges.js';
import { makeSelfSigned } from '../../support/self-signed.js';

/**
 * The webhook sender against real servers on 127.0.0.1: plain HTTP ones (the local host's loopback
 * allowance) and an HTTPS one with a certificate for `hooks.test`, reached through an injected
 * lookup and a policy that also allows the test server's loopback address.
 */

interface Received {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  servername?: string | false | null;
}

const tls = makeSelfSigned(['hooks.test']);
const BODY = Buffer.from('{"id":"evt_01JD0000000000000000000000","type":"post.published"}', 'utf8');
const HEADERS = {
  'Content-Type': 'application/json',
  'User-Agent': 'social-publishing-api-webhooks/1.2.3',
  'X-Webhook-Id': 'evt_01JD0000000000000000000000',
  'X-Webhook-Signature': 't=1,v1=00',
};

function route(req: IncomingMessage, res: ServerResponse) {
  switch (new URL(req.url ?? '/', 'http://receiver').pathname) {
    case '/ok':
      return res.writeHead(204).end();
    case '/error':
      return res.writeHead(500, { 'content-type': 'text/plain' }).end('stack trace of the receiver');
    case '/redirect':
      return res.writeHead(302, { location: '/ok' }).end();
    case '/slow':
      setTimeout(() => res.writeHead(200).end(), 400);
      return;
    case '/stall-body':
      res.writeHead(200, { 'content-length': 100 });
      res.write('partial');
      return; // never sends the rest
    default:
      return res.writeHead(404).end();
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function recording(factory: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server) {
  const received: Received[] = [];
  const server = factory((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        method: req.method ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        servername: (req.socket as Partial<TLSSocket>).servername,
      });
      route(req, res);
    });
  });
  return { server, received };
}

const plain = recording((handler) => createHttpServer(handler));
const secure = recording((handler) => createHttpsServer({ key: tls.key, cert: tls.cert }, handler));
let plainPort = 0;
let securePort = 0;

beforeAll(async () => {
  plainPort = await listen(plain.server);
  securePort = await listen(secure.server);
});
afterAll(async () => {
  for (const { server } of [plain, secure]) {
    (server as ReturnType<typeof createHttpServer>).closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const ZONE: Record<string, ResolvedAddress[]> = {
  'hooks.test': [{ address: '127.0.0.1', family: 4 }],
  'private.test': [{ address: '10.0.0.5', family: 4 }],
  'rebind.test': [
    { address: '127.0.0.1', family: 4 },
    { address: '169.254.169.254', family: 4 },
  ],
};

const lookupZone = vi.fn<Lookup>(async (hostname) => {
  const answer = ZONE[hostname];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
});

/** The HTTPS path with the production rules, plus the test server's loopback address. */
const secureSender = (overrides: WebhookSenderOptions = {}) =>
  makeWebhookSender({
    lookup: lookupZone,
    isAllowedAddress: (address) => address === '127.0.0.1' || isPublicAddress(address),
    ca: tls.cert,
    ...overrides,
  });

const post = (url: string) => ({ url, headers: HEADERS, body: BODY });

describe('the webhook sender', () => {
  describe('HTTPS receivers (every deployment)', () => {
    it('POSTs the exact bytes and headers to the pinned address, with SNI and the certificate of the name', async () => {
      // Prepare
      const before = secure.received.length;

      // Act
      const outcome = await secureSender()(post(`https://hooks.test:${securePort}/ok?x=1`));

      // Assess
      expect(outcome).toEqual({ kind: 'answered', status: 204 });
      const request = secure.received.slice(before)[0];
      expect(request).toMatchObject({ path: '/ok?x=1', method: 'POST', servername: 'hooks.test' });
      expect(request?.body.equals(BODY)).toBe(true);
      expect(request?.headers).toMatchObject({
        host: `hooks.test:${securePort}`,
        'content-type': 'application/json',
        'content-length': String(BODY.length),
        'user-agent': 'social-publishing-api-webhooks/1.2.3',
        'x-webhook-id': 'evt_01JD0000000000000000000000',
        'x-webhook-signature': 't=1,v1=00',
      });
    });

    it('reports any status without reading an error body, and never follows a redirect', async () => {
      // Prepare
      const sender = secureSender();
      const before = secure.received.length;

      // Act
      const error = await sender(post(`https://hooks.test:${securePort}/error`));
      const redirect = await sender(post(`https://hooks.test:${securePort}/redirect`));

      // Assess
      expect([error, redirect]).toEqual([
        { kind: 'answered', status: 500 },
        { kind: 'answered', status: 302 },
      ]);
      expect(secure.received.slice(before).map((r) => r.path)).toEqual(['/error', '/redirect']);
    });

    it.each([
      [
        'a name that resolves to a private address',
        'https://private.test/hook',
        "The receiver URL's host resolves to an address that is not public.",
      ],
      [
        'a name with one private address among public ones (rebinding)',
        'https://rebind.test/hook',
        "The receiver URL's host resolves to an address that is not public.",
      ],
      ['a private literal address', 'https://10.0.0.5/hook', 'Not a public address'],
      ['the cloud metadata address', 'https://169.254.169.254/latest', 'Not a public address'],
      ['plain HTTP', 'http://hooks.test:8080/hook', 'A webhook URL must use HTTPS, not http.'],
      [
        'loopback over HTTP where it is not allowed',
        'http://127.0.0.1:8080/hook',
        'A webhook URL must use HTTPS, not http.',
      ],
      ['a privileged port other than 443', 'https://hooks.test:22/hook', 'port 22'],
      ['localhost', 'https://localhost:8443/hook', 'Not a public address'],
    ])('refuses %s, connecting nowhere', async (_name, url, reason) => {
      // Prepare
      const connections: unknown[] = [];
      const sender = secureSender({
        isAllowedAddress: isPublicAddress,
        httpsRequest: (options) => {
          connections.push(options);
          throw new Error('no connection may be made');
        },
        httpRequest: (options) => {
          connections.push(options);
          throw new Error('no connection may be made');
        },
      });

      // Act
      const outcome = await sender(post(url));

      // Assess
      expect(outcome.kind).toBe('refused');
      expect(outcome.kind === 'refused' && outcome.reason).toContain(reason);
      expect(connections).toEqual([]);
    });

    it('a name that does not resolve, or a TLS failure, is unreachable, in our words', async () => {
      // Act
      const unresolved = await secureSender()(post('https://nowhere.test/hook'));
      const untrusted = await secureSender({ ca: undefined })(post(`https://hooks.test:${securePort}/ok`));

      // Assess
      expect(unresolved).toEqual({
        kind: 'unreachable',
        reason: "The receiver URL's host does not resolve.",
      });
      expect(untrusted).toEqual({
        kind: 'unreachable',
        reason: 'The TLS handshake or the certificate check failed.',
      });
    });
  });

  describe('loopback receivers (the local host only)', () => {
    const local = (options: WebhookSenderOptions = {}) =>
      makeWebhookSender({ allowLoopbackHttp: true, ...options });

    it.each(['127.0.0.1', 'localhost'])('POSTs to http://%s:<port> when allowed', async (host) => {
      // Prepare
      const before = plain.received.length;

      // Act
      const outcome = await local()(post(`http://${host}:${plainPort}/ok`));

      // Assess
      expect(outcome).toEqual({ kind: 'answered', status: 204 });
      const [request] = plain.received.slice(before);
      expect(request?.body.equals(BODY)).toBe(true);
      expect(request?.headers.host).toBe(`${host}:${plainPort}`);
    });

    it('still refuses every other address the rules refuse (the allowance is for loopback HTTP alone)', async () => {
      // Act
      const outcomes = await Promise.all(
        [
          `http://10.0.0.5:${plainPort}/ok`,
          `http://[::1]:${plainPort}/ok`,
          `http://127.0.0.2:${plainPort}/ok`,
          `https://127.0.0.1:${plainPort}/ok`,
        ].map((url) => local({ isAllowedAddress: isPublicAddress })(post(url))),
      );

      // Assess
      expect(outcomes.map((o) => o.kind)).toEqual(['refused', 'refused', 'refused', 'refused']);
    });

    it('gives up when the whole response has not arrived in time: a slow answer, or a body that stalls', async () => {
      // Prepare
      const sender = local({ timeoutMs: 150 });

      // Act
      const slow = await sender(post(`http://127.0.0.1:${plainPort}/slow`));
      const stalled = await sender(post(`http://127.0.0.1:${plainPort}/stall-body`));

      // Assess
      expect(slow).toEqual({ kind: 'timed_out', timeoutMs: 150 });
      expect(stalled).toEqual({ kind: 'timed_out', timeoutMs: 150 });
    });

    it('a port nobody listens on is unreachable', async () => {
      // Prepare: a port that was free a moment ago.
      const probe = createHttpServer();
      const port = await listen(probe);
      await new Promise<void>((resolve) => probe.close(() => resolve()));

      // Act
      const outcome = await local()(post(`http://127.0.0.1:${port}/ok`));

      // Assess
      expect(outcome).toEqual({ kind: 'unreachable', reason: 'The connection to the receiver failed.' });
    });
  });
});
