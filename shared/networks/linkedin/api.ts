import { networkFetch } from '../http/network-fetch.js';

export { readJson } from '../http/json-answer.js';

/**
 * The month of LinkedIn's versioned API this connector is written against (`LinkedIn-Version`).
 * LinkedIn supports a version for about a year and then sunsets it (networks/linkedin.md §1: the
 * May–July 2025 months are gone), so this is bumped deliberately, after re-checking the Posts,
 * Images, Videos, Documents and organizationAcls pages of that month: docs/networks.md.
 */
export const LINKEDIN_VERSION = '202605';

/** Rest.li 2.0: URNs in query strings are URL-encoded, finders and actions as documented. */
export const RESTLI_PROTOCOL_VERSION = '2.0.0';

/** Where a member sees a post: the feed URL of its URN. */
export function linkedInPostUrl(postUrn: string): string {
  return `https://www.linkedin.com/feed/update/${postUrn}/`;
}

/** A streamed body and its exact length in bytes, sent as its Content-Length. */
export interface SizedStream {
  stream: ReadableStream<Uint8Array>;
  length: number;
}

export interface LinkedInCall {
  method: 'GET' | 'POST' | 'PUT';
  /** Path under the API host (`/rest/posts`) or an absolute upload URL LinkedIn handed out. */
  path: string;
  accessToken: string;
  query?: Record<string, string>;
  /**
   * Query parameters already in Rest.li 2.0 form, appended as they are: a structured value such as
   * `entity=(share:urn%3Ali%3Ashare%3A1)` keeps its parentheses and colon unencoded, which `query`
   * would encode.
   */
  restliQuery?: string;
  json?: unknown;
  /**
   * Raw bytes for an upload, whole or streamed. A stream always comes with its length: LinkedIn
   * refuses a body without a Content-Length (411), which is what a stream alone would be sent as
   * (chunked).
   */
  bytes?: Uint8Array | SizedStream;
  /** Rest.li finder calls name themselves (`X-RestLi-Method: FINDER`), as LinkedIn's examples do. */
  restliMethod?: 'FINDER';
  signal: AbortSignal;
}

/**
 * One authenticated call to LinkedIn's versioned API, through networkFetch so that a failure says
 * whether the request can have reached LinkedIn. Every call carries the two headers LinkedIn
 * requires (`LinkedIn-Version`, `X-Restli-Protocol-Version`); upload URLs get them too, harmlessly.
 */
export function makeLinkedInApi(apiUrl: string, fetchImpl: typeof fetch | undefined) {
  return function call(request: LinkedInCall): Promise<Response> {
    const url = /^https?:\/\//.test(request.path) ? new URL(request.path) : new URL(apiUrl + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    if (request.restliQuery)
      url.search = url.search ? `${url.search}&${request.restliQuery}` : request.restliQuery;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${request.accessToken}`,
      'LinkedIn-Version': LINKEDIN_VERSION,
      'X-Restli-Protocol-Version': RESTLI_PROTOCOL_VERSION,
    };
    if (request.restliMethod) headers['X-RestLi-Method'] = request.restliMethod;
    let body: RequestInit['body'];
    if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.bytes instanceof Uint8Array) {
      headers['Content-Type'] = 'application/octet-stream';
      body = request.bytes;
    } else if (request.bytes !== undefined) {
      headers['Content-Type'] = 'application/octet-stream';
      // fetch sends this length instead of chunking, and fails the request if the stream differs.
      headers['Content-Length'] = String(request.bytes.length);
      body = request.bytes.stream;
    }
    return networkFetch(
      url,
      {
        method: request.method,
        headers,
        ...(body !== undefined && { body }),
        // A streamed body must say so (fetch's half-duplex rule); a whole one is sent as it is.
        ...(body instanceof ReadableStream && { duplex: 'half' as const }),
        signal: request.signal,
      },
      fetchImpl,
    );
  };
}

export type LinkedInApi = ReturnType<typeof makeLinkedInApi>;
