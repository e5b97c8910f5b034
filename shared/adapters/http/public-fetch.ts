import type { ClientRequest, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isPublicAddress } from '../../domain/address-ranges.js';
import {
  Deadline,
  defaultLookup,
  type Lookup,
  openPinned,
  PinnedConnectionError,
  pinAddresses,
  type RequestFunction,
} from './pinned-connection.js';

/**
 * A `fetch` for hosts a stranger chose (a Bluesky PDS named in a DID document): like the media
 * fetcher and the webhook sender (pinned-connection.ts), it resolves the name once, refuses it
 * when ANY address is not allowed (public only, unless a test or the local host's fakes allow
 * loopback), and connects to a vetted address with the name kept for SNI, the certificate and
 * Host. A second DNS answer (rebinding) is never used. It never follows a redirect: a 3xx is
 * answered as it is (`redirect: 'error'` throws, as fetch does). Bodies stream both ways; the
 * caller's AbortSignal ends the request at any point.
 */

export interface PublicOnlyFetchOptions {
  lookup?: Lookup;
  /** `isPublicAddress` unless a test, or the local host with its loopback fakes, allows loopback. */
  isAllowedAddress?: (address: string) => boolean;
  /** Plain `http:` URLs (the loopback fakes); https only otherwise. */
  allowPlainHttp?: boolean;
  /** Time from the lookup to the response head (the body is the caller's signal's). undici's 300 s. */
  headTimeoutMs?: number;
  /** Extra trust anchors (tests trust their self-signed certificate); the system's otherwise. */
  ca?: string | Buffer;
  /** Seams for tests: where a connection would go, without a network. */
  httpsRequest?: RequestFunction;
  httpRequest?: RequestFunction;
}

export type AddressRefusal = 'scheme' | 'credentials' | 'address_not_public';

/**
 * The request was refused before anything was sent. Its message names no address (the caller may
 * show it); `code` is stable, so a caller maps it (a permanent failure, never a retry).
 */
export class PublicAddressRefusedError extends Error {
  override readonly name = 'PublicAddressRefusedError';
  readonly code = 'ERR_ADDRESS_NOT_PUBLIC';
  constructor(readonly refusal: AddressRefusal) {
    super(
      refusal === 'scheme'
        ? 'Only https URLs are called.'
        : refusal === 'credentials'
          ? 'A URL with credentials is not called.'
          : "The URL's host is not at a public address.",
    );
  }
}

/** Thrown by the head deadline. */
class HeadTimedOut extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'UND_ERR_HEADERS_TIMEOUT';
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function notResolved(hostname: string, cause: unknown): Error {
  // ENOTFOUND: certainly not sent, as networkFetch reads it.
  return Object.assign(new TypeError(`fetch failed: ${hostname} does not resolve.`, { cause }), {
    code: 'ENOTFOUND',
  });
}

/** The body as bytes (a known length), or as a stream when the caller gave a stream. */
async function bodyOf(
  request: Request,
  init: RequestInit | undefined,
): Promise<{ bytes?: Uint8Array; stream?: Readable }> {
  if (!request.body) return {};
  if (init?.body instanceof ReadableStream) {
    return { stream: Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>) };
  }
  return { bytes: new Uint8Array(await request.arrayBuffer()) };
}

function headersOf(request: Request, length: number | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (name !== 'host' && name !== 'content-length') headers[name] = value;
  });
  if (length === undefined) {
    const declared = request.headers.get('content-length');
    if (declared !== null) headers['content-length'] = declared;
  }
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  return headers;
}

/** The response body, decoded as fetch decodes it. */
function decoded(response: IncomingMessage): Readable {
  switch ((response.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}

function responseOf(response: IncomingMessage, req: ClientRequest, method: string): Response {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) {
    req.destroy();
    throw new TypeError(`fetch failed: an HTTP ${status} answer.`);
  }
  const headers = new Headers();
  for (let index = 0; index + 1 < response.rawHeaders.length; index += 2) {
    headers.append(response.rawHeaders[index] ?? '', response.rawHeaders[index + 1] ?? '');
  }
  if (NULL_BODY_STATUSES.has(status) || method === 'HEAD') {
    req.destroy();
    return new Response(null, { status, statusText: response.statusMessage ?? '', headers });
  }
  const body = decoded(response);
  body.on('error', () => req.destroy());
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, {
    status,
    statusText: response.statusMessage ?? '',
    headers,
  });
}

/** Rejects with the signal's reason when it aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function makePublicOnlyFetch(options: PublicOnlyFetchOptions = {}): typeof fetch {
  const lookup = options.lookup ?? defaultLookup;
  const isAllowedAddress = options.isAllowedAddress ?? isPublicAddress;
  const secureRequest = options.httpsRequest ?? httpsRequest;
  const plainRequest = options.httpRequest ?? httpRequest;
  const headTimeoutMs = options.headTimeoutMs ?? 300_000;

  async function send(url: URL, request: Request, init: RequestInit | undefined): Promise<Response> {
    const tls = url.protocol === 'https:';
    const signal = request.signal;
    signal.throwIfAborted();

    const deadline = new Deadline(headTimeoutMs, () => new HeadTimedOut('No answer came in time.'));
    try {
      const pinned = await abortable(
        pinAddresses(url, { lookup, isAllowedAddress, deadline, defaultPort: tls ? 443 : 80 }),
        signal,
      );
      if ('refusal' in pinned) {
        const { refusal } = pinned;
        if (refusal.kind === 'does_not_resolve') throw notResolved(url.hostname, refusal.cause);
        if (refusal.kind === 'no_address') throw notResolved(url.hostname, undefined);
        throw new PublicAddressRefusedError('address_not_public');
      }
      const body = await bodyOf(request, init);
      const open = tls ? secureRequest : plainRequest;
      // The caller's signal ends the request, the body included; the deadline only its head.
      const withSignal: RequestFunction = (requestOptions) =>
        open({
          ...requestOptions,
          signal: requestOptions.signal ? AbortSignal.any([requestOptions.signal, signal]) : signal,
        });
      const { response, req } = await abortable(
        openPinned({
          target: pinned.target,
          method: request.method,
          headers: headersOf(request, body.bytes?.byteLength),
          ...(body.bytes && { body: body.bytes }),
          ...(body.stream && { bodyStream: body.stream }),
          request: withSignal,
          tls,
          ...(options.ca !== undefined && { ca: options.ca }),
          deadline,
        }),
        signal,
      );
      const status = response.statusCode ?? 0;
      if (request.redirect === 'error' && REDIRECT_STATUSES.has(status)) {
        req.destroy();
        throw new TypeError('fetch failed: the answer is a redirect, and redirects are refused.');
      }
      return responseOf(response, req, request.method);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof PinnedConnectionError)
        throw new TypeError('fetch failed', { cause: error.cause ?? error });
      throw error;
    } finally {
      deadline.clear();
    }
  }

  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowPlainHttp))
      throw new PublicAddressRefusedError('scheme');
    if (url.username !== '' || url.password !== '') throw new PublicAddressRefusedError('credentials');
    // `duplex` lets a stream body through; fetch itself wants it too.
    const request = new Request(input, { ...init, ...(init?.body && { duplex: 'half' }) } as RequestInit);
    return send(url, request, init);
  };
}
