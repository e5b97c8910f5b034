import type { ClientRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { isPublicAddress } from '../../domain/address-ranges.js';
import { MEDIA_URL_PORTS, urlRefusal } from '../../domain/fetchable-url.js';
import { MIME_TYPES_BY_KIND } from '../../domain/media.js';
import type { MediaKind } from '../../domain/posts.js';
import type { FetchedMedia, MediaFetcher } from '../../ports/media-fetcher.js';
import {
  Deadline,
  defaultLookup,
  type Lookup,
  openPinned,
  PinnedConnectionError,
  type PinnedTarget,
  pinAddresses,
  type ResolvedAddress,
} from './pinned-connection.js';

export type { FetchedMedia, MediaFetcher };

/** The stable codes a failed media fetch carries; the worker fails the post with one of them. */
export type MediaFetchErrorCode =
  | 'media_url_blocked'
  | 'media_url_unreachable'
  | 'media_too_large'
  | 'media_type_mismatch'
  | 'media_fetch_timeout'
  | 'media_too_many_redirects';

/**
 * Why a public media URL could not be fetched. `message` is safe to show the caller: it names at most
 * what the caller gave (its URL's host), never an address we resolved or a redirect target. The
 * technical detail, when there is one, is in `cause`, for logs only. `transient` says whether a later
 * attempt may succeed (time-out, DNS or connection failure, 5xx, 408, 429).
 */
export class MediaFetchError extends Error {
  constructor(
    readonly code: MediaFetchErrorCode,
    message: string,
    readonly transient = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediaFetchError';
  }
}

export type { Lookup, ResolvedAddress };

/** Opens one HTTPS request; `node:https` request unless a test injects another. */
export type HttpsRequest = (options: RequestOptions) => ClientRequest;

export interface SafeFetcherOptions {
  /** Largest body accepted, in bytes: one cap, or one per kind (the upload limits, `MAX_BYTES_BY_KIND`). */
  maxBytes: number | Readonly<Record<MediaKind, number>>;
  /** Time for the whole fetch, every redirect hop and the body included. */
  timeoutMs: number;
  lookup?: Lookup;
  /** Redirects followed at most (3). */
  maxRedirects?: number;
  /** Ports a URL may name (443 only). */
  allowedPorts?: readonly number[];
  /** Extra trust anchors (tests trust their self-signed certificate); the system's otherwise. */
  ca?: string | Buffer;
  /**
   * Which resolved or literal addresses a connection may go to: `isPublicAddress` unless a test of
   * the happy path also allows its loopback server. Localhost names and the addresses the request-time
   * check refuses (`urlRefusal`) are refused whatever this says.
   */
  isAllowedAddress?: (address: string) => boolean;
  /** Seam for unit tests: proves, without a network, where a connection would go (or that none is made). */
  request?: HttpsRequest;
  userAgent?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_USER_AGENT = 'social-publishing-api-media-fetcher/1.0';

function blocked(reason: string): MediaFetchError {
  return new MediaFetchError('media_url_blocked', `The media URL is refused: ${reason}`);
}

function unreachable(reason: string, transient: boolean, cause?: unknown): MediaFetchError {
  return new MediaFetchError(
    'media_url_unreachable',
    `The media URL could not be fetched: ${reason}`,
    transient,
    {
      cause,
    },
  );
}

/** The media type of a Content-Type header, lower case and without parameters. */
function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Makes the fetcher of public media URLs (interface 4, rule 4). Every hop, the first and each
 * redirect, is vetted in full before anything is sent: HTTPS only, no credentials, an allowed port, no
 * localhost name, and every address the name resolves to allowed (one refused address refuses the
 * URL). The name is resolved once per hop and the connection goes to a vetted address, with the host
 * name kept for SNI, the certificate check and the Host header: a second, different DNS answer
 * (rebinding) is never used. Global `fetch` is not used because it resolves names itself.
 */
export function makeSafeFetcher(options: SafeFetcherOptions): MediaFetcher {
  const lookup = options.lookup ?? defaultLookup;
  const maxRedirects = options.maxRedirects ?? 3;
  const allowedPorts = options.allowedPorts ?? MEDIA_URL_PORTS;
  const isAllowedAddress = options.isAllowedAddress ?? isPublicAddress;
  const request = options.request ?? httpsRequest;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  /** Steps 1–5 of a hop: scheme, credentials, port, literal host, DNS and every resolved address. */
  async function vet(url: URL, isRedirect: boolean, deadline: Deadline): Promise<PinnedTarget> {
    const where = isRedirect ? 'it redirects to' : 'it points at';
    // The rules that need no lookup are the request-time check's own (shared/domain/fetchable-url.ts).
    const refusal = urlRefusal(url, allowedPorts);
    if (refusal?.rule === 'scheme')
      throw blocked(`only HTTPS URLs are fetched (${where} ${url.protocol}//).`);
    if (refusal?.rule === 'credentials')
      throw blocked('a URL with credentials (user:password@) is not fetched.');
    if (refusal?.rule === 'port') throw blocked(`${where} port ${refusal.port}, which is not fetched.`);
    if (refusal?.rule === 'host')
      throw blocked(isRedirect ? 'it redirects to a non-public host.' : `${refusal.reason}.`);

    const pinned = await pinAddresses(url, { lookup, isAllowedAddress, deadline, defaultPort: 443 });
    if ('target' in pinned) return pinned.target;
    const { refusal: problem } = pinned;
    const host = isRedirect ? 'it redirects to' : url.hostname.replace(/\.+$/, '');
    switch (problem.kind) {
      case 'literal_not_allowed':
        throw blocked(
          isRedirect
            ? 'it redirects to a non-public address.'
            : `${problem.address} is not a public address.`,
        );
      case 'does_not_resolve':
        throw unreachable(`the host ${host} does not resolve.`, true, problem.cause);
      case 'no_address':
        throw unreachable(`the host ${host} has no address.`, true);
      case 'resolved_not_allowed':
        throw blocked(
          isRedirect
            ? 'it redirects to a host with a non-public address.'
            : `${host} resolves to a non-public address.`,
        );
    }
  }

  /** Tries the pinned addresses in order until one takes the connection (GET, no body). */
  async function open(target: PinnedTarget, expected: MediaKind, deadline: Deadline) {
    try {
      return await openPinned({
        target,
        method: 'GET',
        headers: {
          accept: MIME_TYPES_BY_KIND[expected].join(', '),
          'accept-encoding': 'identity',
          'user-agent': userAgent,
        },
        request,
        tls: true,
        ...(options.ca !== undefined && { ca: options.ca }),
        deadline,
      });
    } catch (error) {
      if (!(error instanceof PinnedConnectionError)) throw error;
      switch (error.stage) {
        case 'connect':
          throw unreachable('the connection failed.', true, error.cause);
        case 'tls':
          throw unreachable('the TLS handshake or the certificate check failed.', false, error.cause);
        case 'broken':
          throw unreachable('the connection broke.', true, error.cause);
      }
    }
  }

  /** Reads the body up to the cap; destroys the request once the cap is passed. */
  function readBody(response: IncomingMessage, req: ClientRequest, maxBytes: number, deadline: Deadline) {
    return deadline.race(
      new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy();
            reject(tooLarge(maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', (error) => reject(unreachable('the response ended early.', true, error)));
        response.on('close', () => {
          if (!response.complete) reject(unreachable('the response ended early.', true));
        });
      }),
    );
  }

  return async function fetchMedia(rawUrl, expected) {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch (error) {
      throw new MediaFetchError('media_url_blocked', 'The media URL is refused: it is not a URL.', false, {
        cause: error,
      });
    }
    const deadline = new Deadline(
      options.timeoutMs,
      () =>
        new MediaFetchError(
          'media_fetch_timeout',
          `The media URL did not answer within ${options.timeoutMs} ms.`,
          true,
        ),
    );
    try {
      for (let hop = 0; ; hop++) {
        const target = await vet(url, hop > 0, deadline);
        const { response, req } = await open(target, expected, deadline);
        const status = response.statusCode ?? 0;

        if (REDIRECT_STATUSES.has(status) && response.headers.location) {
          req.destroy();
          if (hop >= maxRedirects) {
            throw new MediaFetchError(
              'media_too_many_redirects',
              `The media URL redirects more than ${maxRedirects} times.`,
            );
          }
          try {
            url = new URL(response.headers.location, url);
          } catch (error) {
            throw unreachable('it redirects to something that is not a URL.', false, error);
          }
          continue;
        }
        if (status < 200 || status > 299) {
          req.destroy();
          throw unreachable(`it answered HTTP ${status}.`, status >= 500 || status === 408 || status === 429);
        }

        const contentType = mediaTypeOf(response.headers['content-type']);
        if (!MIME_TYPES_BY_KIND[expected].includes(contentType)) {
          req.destroy();
          throw new MediaFetchError(
            'media_type_mismatch',
            `The media URL serves "${contentType.slice(0, 100) || 'no content type'}", which is not a supported ${expected} type (${MIME_TYPES_BY_KIND[expected].join(', ')}).`,
          );
        }
        const declared = Number(response.headers['content-length']);
        const maxBytes = typeof options.maxBytes === 'number' ? options.maxBytes : options.maxBytes[expected];
        if (Number.isFinite(declared) && declared > maxBytes) {
          req.destroy();
          throw tooLarge(maxBytes);
        }
        const bytes = await readBody(response, req, maxBytes, deadline);
        return { bytes, contentType, finalUrl: url.href };
      }
    } finally {
      deadline.clear();
    }
  };
}

function tooLarge(maxBytes: number): MediaFetchError {
  return new MediaFetchError('media_too_large', `The media at the URL is larger than ${maxBytes} bytes.`);
}
