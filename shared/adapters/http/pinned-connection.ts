import { lookup as dnsLookup } from 'node:dns/promises';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { checkServerIdentity } from 'node:tls';

/**
 * What the SSRF-safe clients share (the media fetcher, safe-fetch.ts; the webhook sender,
 * webhook-sender.ts): resolve a host name ONCE, check every address it resolves to, then connect
 * to one of those vetted addresses while keeping the name for SNI, the certificate check and the
 * Host header. A second, different DNS answer (rebinding) is therefore never used. Global `fetch`
 * is not used because it resolves names itself.
 *
 * The callers keep their own words: this module reports what happened (`PinRefusal`,
 * `PinnedConnectionError`), and each client turns that into its own error or outcome.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses, as `dns.lookup(name, { all: true })` does. */
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** Opens one request (`node:https` or `node:http`'s `request`, unless a test injects another). */
export type RequestFunction = (options: RequestOptions) => ClientRequest;

export async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

/**
 * Ends a request that ran past its time: the signal of every request, and the race of every step
 * (lookup, connection, body). `onExpiry` makes the caller's own time-out error.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  readonly expired: Promise<never>;

  constructor(ms: number, onExpiry: () => Error) {
    let fire: (error: Error) => void = () => {};
    this.expired = new Promise<never>((_, reject) => {
      fire = reject;
    });
    this.expired.catch(() => {});
    this.timer = setTimeout(() => {
      // Settle first: the aborted request's own errors come after and lose every race.
      fire(onExpiry());
      this.controller.abort();
    }, ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The promise's outcome, or the time-out if that comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.expired]);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** A vetted destination: where to connect (the pinned addresses) and what to say to the server. */
export interface PinnedTarget {
  url: URL;
  /** The host name for SNI and the certificate check, without trailing dots (or a bare literal). */
  hostname: string;
  port: number;
  addresses: ResolvedAddress[];
}

/** Why a host's addresses may not be connected to (the URL's other rules are checked before). */
export type PinRefusal =
  /** The URL names an address literally, and it is not allowed. */
  | { kind: 'literal_not_allowed'; address: string }
  /** At least one resolved address is not allowed: the whole name is refused. */
  | { kind: 'resolved_not_allowed' }
  | { kind: 'does_not_resolve'; cause: unknown }
  | { kind: 'no_address' };

export interface PinOptions {
  lookup: Lookup;
  /** Which resolved or literal addresses a connection may go to (`isPublicAddress` in production). */
  isAllowedAddress: (address: string) => boolean;
  deadline: Deadline;
  /** The port when the URL names none. */
  defaultPort: number;
}

/**
 * Resolves the URL's host once and checks each address: a literal address must be allowed; a name
 * must resolve, and EVERY address it resolves to must be allowed (one refused address refuses the
 * URL). The deadline's own error passes through unchanged.
 */
export async function pinAddresses(
  url: URL,
  options: PinOptions,
): Promise<{ target: PinnedTarget } | { refusal: PinRefusal }> {
  const port = url.port === '' ? options.defaultPort : Number(url.port);
  const hostname = url.hostname.replace(/\.+$/, '');
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(bare);
  if (family !== 0) {
    if (!options.isAllowedAddress(bare)) return { refusal: { kind: 'literal_not_allowed', address: bare } };
    return {
      target: { url, hostname: bare, port, addresses: [{ address: bare, family: family === 6 ? 6 : 4 }] },
    };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await options.deadline.race(options.lookup(url.hostname));
  } catch (error) {
    if (options.deadline.signal.aborted) throw error;
    return { refusal: { kind: 'does_not_resolve', cause: error } };
  }
  if (addresses.length === 0) return { refusal: { kind: 'no_address' } };
  if (addresses.some(({ address }) => !options.isAllowedAddress(address))) {
    return { refusal: { kind: 'resolved_not_allowed' } };
  }
  return { target: { url, hostname, port, addresses } };
}

/**
 * A request to a pinned address that failed: `connect` before any TCP connection (the next
 * pinned address may still answer), `tls` in the handshake or the certificate check, `broken`
 * after the connection was made.
 */
export class PinnedConnectionError extends Error {
  constructor(
    readonly stage: 'connect' | 'tls' | 'broken',
    options: { cause: unknown },
  ) {
    super(`The pinned connection failed (${stage}).`, options);
    this.name = 'PinnedConnectionError';
  }
}

export interface PinnedRequest {
  target: PinnedTarget;
  method: string;
  /** Sent as they are, plus `host` (the URL's own) and, with a body, `content-length`. */
  headers: Record<string, string>;
  body?: Uint8Array;
  /**
   * A body streamed instead of `body` (public-fetch.ts): piped once the TCP connection is made, so
   * a failed connection leaves it unread for the next pinned address. Its length is the caller's
   * header, if any (chunked otherwise).
   */
  bodyStream?: Readable;
  /** `node:https`'s request for https URLs; `node:http`'s only where plain HTTP is allowed. */
  request: RequestFunction;
  /** True for HTTPS: SNI and the certificate checked against the URL's host name. */
  tls: boolean;
  /** Extra trust anchors (tests trust their self-signed certificate); the system's otherwise. */
  ca?: string | Buffer;
  deadline: Deadline;
}

/** One request to one pinned address; resolves with the response head. */
function requestOnce(pinned: PinnedRequest, address: ResolvedAddress) {
  const { target, deadline } = pinned;
  return new Promise<{ response: IncomingMessage; req: ClientRequest }>((resolve, reject) => {
    let req: ClientRequest;
    try {
      req = pinned.request({
        host: address.address,
        family: address.family,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: pinned.method,
        headers: {
          host: target.url.host,
          ...pinned.headers,
          ...(pinned.body && { 'content-length': String(pinned.body.byteLength) }),
        },
        ...(pinned.tls && {
          servername: isIP(target.hostname) ? undefined : target.hostname,
          checkServerIdentity: (_host: string, certificate: Parameters<typeof checkServerIdentity>[1]) =>
            checkServerIdentity(target.hostname, certificate),
          ca: pinned.ca,
        }),
        agent: false,
        signal: deadline.signal,
      } as RequestOptions);
    } catch (error) {
      reject(new PinnedConnectionError('connect', { cause: error }));
      return;
    }
    let connected = false;
    let secured = !pinned.tls;
    req.on('socket', (socket) => {
      socket.once('connect', () => (connected = true));
      socket.once('secureConnect', () => (secured = true));
    });
    req.on('response', (response) => resolve({ response, req }));
    req.on('error', (error) => {
      if (deadline.signal.aborted) return; // the deadline's own error wins the race
      if (!connected) reject(new PinnedConnectionError('connect', { cause: error }));
      else if (!secured) reject(new PinnedConnectionError('tls', { cause: error }));
      else reject(new PinnedConnectionError('broken', { cause: error }));
    });
    const { bodyStream } = pinned;
    if (bodyStream) {
      req.on('socket', (socket) => socket.once('connect', () => pipeline(bodyStream, req, () => {})));
    } else req.end(pinned.body);
  });
}

/**
 * Sends the request to the pinned addresses in order until one takes the connection, and resolves
 * with the response head (the body is the caller's to read or discard). A failure after the
 * connection was made is not tried elsewhere: the request may have arrived.
 */
export async function openPinned(pinned: PinnedRequest) {
  let lastError: unknown;
  for (const address of pinned.target.addresses) {
    try {
      return await pinned.deadline.race(requestOnce(pinned, address));
    } catch (error) {
      lastError = error;
      if (!(error instanceof PinnedConnectionError && error.stage === 'connect')) throw error;
    }
  }
  throw lastError;
}
