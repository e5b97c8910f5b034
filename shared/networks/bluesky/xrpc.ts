import * as oauth from 'oauth4webapi';
import { readJson } from '../http/json-answer.js';
import { withNonceRetry } from './dpop.js';
import { requestOptions } from './insecure.js';

/** Who calls a PDS and how: one per publish or look-up. */
export interface XrpcCaller {
  /** The account's PDS (or the video service), e.g. https://morel.us-east.host.bsky.network. */
  serviceUrl: string;
  /** The network's access token; with `dpop`, a DPoP-bound one, else a Bearer (service) token. */
  accessToken?: string;
  dpop?: oauth.DPoPHandle;
  fetch?: typeof fetch;
  signal: AbortSignal;
}

export interface XrpcCall {
  method: 'GET' | 'POST';
  /** The NSID, e.g. `com.atproto.repo.createRecord`. */
  nsid: string;
  /** A list is sent as the parameter repeated (`uris=…&uris=…`). */
  query?: Record<string, string | readonly string[]>;
  /** Extra headers, e.g. `atproto-proxy` for a call the PDS passes to the AppView. */
  headers?: Record<string, string>;
  json?: unknown;
  /** Raw bytes (a blob upload) with their media type. */
  bytes?: { body: Uint8Array | ReadableStream<Uint8Array>; contentType: string; length?: number };
}

/** The answer, whatever its status: the connector maps errors by status, then by XRPC name (errors.ts). */
export interface XrpcAnswer {
  status: number;
  ok: boolean;
  body: unknown;
  headers: Headers;
}

/**
 * One XRPC call (https://atproto.com/specs/xrpc) through networkFetch: with the session's DPoP proof
 * and `Authorization: DPoP`, a use_dpop_nonce answer is retried once with the new nonce. Throws
 * RequestNotSentError / NoAnswerError when no answer came.
 */
export async function callXrpc(caller: XrpcCaller, call: XrpcCall): Promise<XrpcAnswer> {
  const url = new URL(`${caller.serviceUrl.replace(/\/$/, '')}/xrpc/${call.nsid}`);
  for (const [name, value] of Object.entries(call.query ?? {})) {
    for (const one of typeof value === 'string' ? [value] : value) url.searchParams.append(name, one);
  }
  const headers = new Headers({ Accept: 'application/json', ...call.headers });
  let body: string | Uint8Array | ReadableStream<Uint8Array> | null = null;
  if (call.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(call.json);
  } else if (call.bytes) {
    headers.set('Content-Type', call.bytes.contentType);
    if (call.bytes.length !== undefined) headers.set('Content-Length', String(call.bytes.length));
    body = call.bytes.body;
  }
  const options = requestOptions(url.href, caller.fetch, caller.signal);
  const send = async (): Promise<Response> => {
    if (!caller.accessToken)
      return options[oauth.customFetch](url.href, { method: call.method, headers, body });
    try {
      return await oauth.protectedResourceRequest(caller.accessToken, call.method, url, headers, body, {
        ...options,
        ...(caller.dpop && { DPoP: caller.dpop }),
      });
    } catch (error) {
      // A challenge other than a stale nonce (an expired or revoked token) is an answer to map.
      if (error instanceof oauth.WWWAuthenticateChallengeError && !oauth.isDPoPNonceError(error))
        return error.response;
      throw error;
    }
  };
  const response = await withNonceRetry(send);
  return {
    status: response.status,
    ok: response.ok,
    body: await readJson(response),
    headers: response.headers,
  };
}
