import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Lookup,
  MediaFetchError,
  makeSafeFetcher,
  type ResolvedAddress,
  type SafeFetcherOptions,
} from '../../../shared/adapters/http/safe-fetch.js';
import { isPublicAddress } from '../../../shared/domain/address-ranges.js';
import { makeSelfSigned } from '../../support/self-signed.js';

/**
 * The media fetcher against real HTTPS servers on 127.0.0.1, with a certificate made at test time
 * for `media.test` and `cdn.test`. The names resolve through an injected lookup; the policy is the
 * production one plus 127.0.0.1 (the servers), so every other private target stays refused.
 */

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const MAX_BYTES = 1024;

interface Seen {
  path: string;
  host: string | undefined;
  servername: string | false | null;
  accept: string | undefined;
  userAgent: string | undefined;
  localAddress: string | undefined;
}

interface TestServer {
  server: Server;
  port: number;
  seen: Seen[];
  /** Resolves when a response closes, with whether it was written to the end. */
  closed: (path: string) => Promise<boolean>;
}

const tls = makeSelfSigned(['media.test', 'cdn.test']);
let media: TestServer;
let cdn: TestServer;

function pathsOf(server: TestServer) {
  return server.seen.map(({ path }) => path);
}

/** The routes both servers serve; `other` is the port of the other server, for cross-host redirects. */
function route(req: IncomingMessage, res: ServerResponse, ports: { self: number; other: () => number }) {
  const path = req.url ?? '/';
  const redirect = (location: string, status = 302) => {
    res.writeHead(status, { location }).end();
  };
  const chain = /^\/chain\/(\d+)$/.exec(path);
  if (chain) {
    const left = Number(chain[1]);
    return left === 0 ? redirect('/photo.png', 301) : redirect(`/chain/${left - 1}`, 307);
  }
  switch (path) {
    case '/photo.png':
      return res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
    case '/photo-with-parameters':
      return res.writeHead(200, { 'content-type': 'Image/PNG; charset=binary' }).end(PNG);
    case '/page.html':
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    case '/no-type':
      return res.writeHead(200).end(PNG);
    case '/big-declared':
      return res
        .writeHead(200, { 'content-type': 'image/png', 'content-length': MAX_BYTES * 8 })
        .end(Buffer.alloc(MAX_BYTES * 8));
    case '/big-streamed': {
      res.writeHead(200, { 'content-type': 'image/png' }); // chunked: no Content-Length
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed || sent >= 64) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(Buffer.alloc(256));
        sent++;
      }, 5);
      return;
    }
    case '/hang':
      return; // never answers
    case '/stall-body':
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': 500 });
      res.write(Buffer.alloc(100));
      return; // never sends the rest
    case '/missing':
      return res.writeHead(404).end();
    case '/unavailable':
      return res.writeHead(503).end();
    case '/redirect-relative':
      return redirect('/photo.png', 301);
    case '/redirect-cdn':
      return redirect(`https://cdn.test:${ports.other()}/photo.png`, 308);
    case '/redirect-private':
      return redirect(`https://private.test:${ports.self}/photo.png`);
    case '/redirect-rebind':
      return redirect(`https://rebind.test:${ports.self}/photo.png`);
    case '/redirect-localhost':
      return redirect(`https://localhost:${ports.self}/photo.png`);
    case '/redirect-loopback-literal':
      return redirect(`https://127.0.0.1:${ports.self}/photo.png`);
    case '/redirect-v6-loopback':
      return redirect(`https://[::1]:${ports.self}/photo.png`);
    case '/redirect-metadata':
      return redirect(`https://169.254.169.254:${ports.self}/latest/meta-data/`);
    case '/redirect-decimal':
      return redirect(`https://2130706433:${ports.self}/photo.png`);
    case '/redirect-http':
      return redirect(`http://media.test:${ports.self}/photo.png`);
    case '/redirect-credentials':
      return redirect(`https://user:secret@media.test:${ports.self}/photo.png`);
    case '/redirect-other-port':
      return redirect('https://media.test:22/photo.png');
    default:
      return res.writeHead(404).end();
  }
}

async function startServer(other: () => number): Promise<TestServer> {
  const seen: Seen[] = [];
  const closes = new Map<string, Promise<boolean>>();
  const waiters = new Map<string, (finished: boolean) => void>();
  const closed = (path: string) => {
    const existing = closes.get(path);
    if (existing) return existing;
    const promise = new Promise<boolean>((resolve) => waiters.set(path, resolve));
    closes.set(path, promise);
    return promise;
  };
  let self = 0;
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const path = req.url ?? '/';
    seen.push({
      path,
      host: req.headers.host,
      servername: (req.socket as TLSSocket).servername,
      accept: req.headers.accept,
      userAgent: req.headers['user-agent'],
      localAddress: req.socket.localAddress,
    });
    void closed(path);
    res.on('close', () => waiters.get(path)?.(res.writableFinished));
    route(req, res, { self, other });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = (server.address() as AddressInfo).port;
  return { server, port: self, seen, closed };
}

async function stopServer(test: TestServer | undefined) {
  if (!test) return;
  test.server.closeAllConnections();
  await new Promise<void>((resolve, reject) =>
    test.server.close((error) => (error ? reject(error) : resolve())),
  );
}

const loopback = (): ResolvedAddress[] => [{ address: '127.0.0.1', family: 4 }];
const ZONE: Record<string, () => ResolvedAddress[]> = {
  'media.test': loopback,
  'cdn.test': loopback,
  // Covered by nothing in the certificate: a TLS failure.
  'wrong.test': loopback,
  'private.test': () => [{ address: '10.0.0.5', family: 4 }],
  'rebind.test': () => [
    { address: '127.0.0.1', family: 4 },
    { address: '169.254.169.254', family: 4 },
  ],
};

function makeLookup() {
  return vi.fn<Lookup>(async (hostname) => {
    const answer = ZONE[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer();
  });
}

/** The production policy, plus the loopback address the test servers listen on. */
const allowTestServers = (address: string) => address === '127.0.0.1' || isPublicAddress(address);

function fetcher(overrides: Partial<SafeFetcherOptions> = {}) {
  const lookup = makeLookup();
  const fetchMedia = makeSafeFetcher({
    maxBytes: MAX_BYTES,
    timeoutMs: 5_000,
    lookup,
    ca: tls.cert,
    allowedPorts: [media.port, cdn.port],
    isAllowedAddress: allowTestServers,
    ...overrides,
  });
  return { fetchMedia, lookup };
}

async function failureOf(promise: Promise<unknown>): Promise<MediaFetchError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MediaFetchError);
  return error as MediaFetchError;
}

const at = (path: string, host = 'media.test', port = () => media.port) => `https://${host}:${port()}${path}`;

beforeAll(async () => {
  media = await startServer(() => cdn.port);
  cdn = await startServer(() => media.port);
});

afterAll(async () => {
  await stopServer(media);
  await stopServer(cdn);
});

beforeEach(() => {
  media.seen.length = 0;
  cdn.seen.length = 0;
});

describe('fetching a public media URL', () => {
  it('returns the bytes, the media type and the final URL', async () => {
    // Prepare
    const { fetchMedia } = fetcher();

    // Act
    const fetched = await fetchMedia(at('/photo.png'), 'image');

    // Assess
    expect(fetched).toEqual({ bytes: PNG, contentType: 'image/png', finalUrl: at('/photo.png') });
  });

  it('connects to the vetted address with the host name for SNI and Host, and asks for the kind by Accept', async () => {
    const { fetchMedia } = fetcher();

    await fetchMedia(at('/photo.png'), 'image');

    expect(media.seen).toEqual([
      {
        path: '/photo.png',
        host: `media.test:${media.port}`,
        servername: 'media.test',
        accept: 'image/jpeg, image/png, image/gif, image/webp, image/heic',
        userAgent: expect.stringMatching(/media-fetcher/),
        localAddress: '127.0.0.1',
      },
    ]);
  });

  it('accepts a media type with parameters and in capitals, and gives it back plain', async () => {
    const { fetchMedia } = fetcher();

    const fetched = await fetchMedia(at('/photo-with-parameters'), 'image');

    expect(fetched.contentType).toBe('image/png');
    expect(fetched.bytes).toEqual(PNG);
  });

  it('takes the cap per kind when given one per kind', async () => {
    const { fetchMedia } = fetcher({ maxBytes: { image: PNG.length, video: 1, document: 1 } });

    await expect(fetchMedia(at('/photo.png'), 'image')).resolves.toMatchObject({ bytes: PNG });
  });
});

describe('DNS pinning', () => {
  it('resolves once per fetch and connects to that answer, never to a later, different one', async () => {
    // Prepare: the first answer is the (allowed) test server; every later one is private.
    let calls = 0;
    const lookup = vi.fn<Lookup>(async () => {
      calls++;
      return calls === 1 ? loopback() : [{ address: '10.0.0.5', family: 4 }];
    });
    const { fetchMedia } = fetcher({ lookup });

    // Act
    const first = await fetchMedia(at('/photo.png'), 'image');
    const second = await failureOf(fetchMedia(at('/photo.png'), 'image'));

    // Assess: `media.test` exists in no real DNS, so the first fetch can only have reached the server
    // through the vetted answer; the second fetch vets its own answer and is refused before connecting.
    expect(first.bytes).toEqual(PNG);
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(second.code).toBe('media_url_blocked');
    expect(media.seen).toHaveLength(1);
    expect(media.seen[0]?.localAddress).toBe('127.0.0.1');
  });

  it('resolves each redirect hop once, by its own name', async () => {
    const { fetchMedia, lookup } = fetcher();

    await fetchMedia(at('/redirect-cdn'), 'image');

    expect(lookup.mock.calls.map(([hostname]) => hostname)).toEqual(['media.test', 'cdn.test']);
  });
});

describe('redirects', () => {
  it('follows a relative redirect on the same host', async () => {
    const { fetchMedia } = fetcher();

    const fetched = await fetchMedia(at('/redirect-relative'), 'image');

    expect(fetched.finalUrl).toBe(at('/photo.png'));
    expect(pathsOf(media)).toEqual(['/redirect-relative', '/photo.png']);
  });

  it('follows a redirect to another allowed host, checking the certificate against that host', async () => {
    const { fetchMedia } = fetcher();

    const fetched = await fetchMedia(at('/redirect-cdn'), 'image');

    expect(fetched).toMatchObject({ bytes: PNG, finalUrl: at('/photo.png', 'cdn.test', () => cdn.port) });
    expect(cdn.seen).toEqual([
      expect.objectContaining({ path: '/photo.png', host: `cdn.test:${cdn.port}`, servername: 'cdn.test' }),
    ]);
  });

  it('follows 3 redirects', async () => {
    const { fetchMedia } = fetcher();

    const fetched = await fetchMedia(at('/chain/2'), 'image');

    expect(fetched.bytes).toEqual(PNG);
    expect(pathsOf(media)).toEqual(['/chain/2', '/chain/1', '/chain/0', '/photo.png']);
  });

  it('refuses a 4th redirect without following it', async () => {
    const { fetchMedia } = fetcher();

    const error = await failureOf(fetchMedia(at('/chain/3'), 'image'));

    expect(error.code).toBe('media_too_many_redirects');
    expect(pathsOf(media)).toEqual(['/chain/3', '/chain/2', '/chain/1', '/chain/0']);
  });

  it('honours a lower redirect limit', async () => {
    const { fetchMedia } = fetcher({ maxRedirects: 0 });

    const error = await failureOf(fetchMedia(at('/redirect-relative'), 'image'));

    expect(error.code).toBe('media_too_many_redirects');
  });

  it.each([
    ['a name that resolves to 10.0.0.5', '/redirect-private'],
    ['a name with one public and one metadata address', '/redirect-rebind'],
    ['localhost', '/redirect-localhost'],
    ['the loopback literal 127.0.0.1', '/redirect-loopback-literal'],
    ['[::1]', '/redirect-v6-loopback'],
    ['169.254.169.254', '/redirect-metadata'],
    ['127.0.0.1 written as a decimal', '/redirect-decimal'],
    ['http://', '/redirect-http'],
    ['a URL with credentials', '/redirect-credentials'],
    ['port 22', '/redirect-other-port'],
  ])('refuses a redirect to %s and never connects to it', async (_what, path) => {
    // Prepare
    const { fetchMedia } = fetcher();

    // Act
    const error = await failureOf(fetchMedia(at(path), 'image'));

    // Assess: the redirecting server saw only the first request; the message names no target.
    expect(error.code).toBe('media_url_blocked');
    expect(pathsOf(media)).toEqual([path]);
    expect(cdn.seen).toEqual([]);
    expect(error.message).not.toMatch(/10\.0\.0\.5|169\.254|127\.0\.0\.1|2130706433|private\.test|secret/);
  });
});

describe('what the response must be', () => {
  it.each([
    ['text/html for an image', '/page.html', 'image'],
    ['no Content-Type at all', '/no-type', 'image'],
    ['an image for a video', '/photo.png', 'video'],
    ['an image for a document', '/photo.png', 'document'],
  ] as const)('refuses %s', async (_what, path, kind) => {
    const { fetchMedia } = fetcher();

    const error = await failureOf(fetchMedia(at(path), kind));

    expect(error.code).toBe('media_type_mismatch');
    expect(error.transient).toBe(false);
  });

  it('refuses a body whose Content-Length is over the cap', async () => {
    const { fetchMedia } = fetcher();

    const error = await failureOf(fetchMedia(at('/big-declared'), 'image'));

    expect(error.code).toBe('media_too_large');
  });

  it('stops reading a streamed body (no Content-Length) once it passes the cap, and closes the connection', async () => {
    // Prepare
    const { fetchMedia } = fetcher();
    const serverSide = media.closed('/big-streamed');

    // Act
    const error = await failureOf(fetchMedia(at('/big-streamed'), 'image'));

    // Assess: the server could not finish writing its 16 KiB.
    expect(error.code).toBe('media_too_large');
    expect(await serverSide).toBe(false);
  });

  it.each([
    [404, '/missing', false],
    [503, '/unavailable', true],
  ])('treats HTTP %i as unreachable (transient: %s)', async (status, path, transient) => {
    const { fetchMedia } = fetcher();

    const error = await failureOf(fetchMedia(at(path), 'image'));

    expect(error).toMatchObject({ code: 'media_url_unreachable', transient });
    expect(error.message).toContain(String(status));
  });
});

describe('time-out and TLS', () => {
  it('gives up on a server that never answers, within the time-out', async () => {
    const { fetchMedia } = fetcher({ timeoutMs: 300 });
    const started = Date.now();

    const error = await failureOf(fetchMedia(at('/hang'), 'image'));

    expect(error).toMatchObject({ code: 'media_fetch_timeout', transient: true });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('gives up on a body that stalls halfway, and closes the connection', async () => {
    const { fetchMedia } = fetcher({ timeoutMs: 300 });
    const serverSide = media.closed('/stall-body');

    const error = await failureOf(fetchMedia(at('/stall-body'), 'image'));

    expect(error.code).toBe('media_fetch_timeout');
    expect(await serverSide).toBe(false);
  });

  it('refuses a certificate that does not name the host', async () => {
    const { fetchMedia } = fetcher();

    const error = await failureOf(fetchMedia(at('/photo.png', 'wrong.test'), 'image'));

    expect(error).toMatchObject({ code: 'media_url_unreachable', transient: false });
    expect(media.seen).toEqual([]);
  });

  it('refuses a certificate it does not trust', async () => {
    const { fetchMedia } = fetcher({ ca: undefined });

    const error = await failureOf(fetchMedia(at('/photo.png'), 'image'));

    expect(error.code).toBe('media_url_unreachable');
    expect(media.seen).toEqual([]);
  });

  it('reports a refused connection as unreachable and transient', async () => {
    // Prepare: a port nothing listens on (a server started and stopped).
    const gone = await startServer(() => media.port);
    await stopServer(gone);
    const { fetchMedia } = fetcher({ allowedPorts: [gone.port] });

    const error = await failureOf(
      fetchMedia(
        at('/photo.png', 'media.test', () => gone.port),
        'image',
      ),
    );

    expect(error).toMatchObject({ code: 'media_url_unreachable', transient: true });
  });
});

describe('the default policy', () => {
  it('refuses the loopback test server itself when 127.0.0.1 is not allowed', async () => {
    const { fetchMedia } = fetcher({ isAllowedAddress: undefined });

    const error = await failureOf(fetchMedia(at('/photo.png'), 'image'));

    expect(error.code).toBe('media_url_blocked');
    expect(media.seen).toEqual([]);
  });
});
