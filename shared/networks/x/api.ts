import { readJson } from '../http/json-answer.js';
import { networkFetch } from '../http/network-fetch.js';
import { readRateLimit, type XRateLimit } from './rate-limit.js';

/** Who calls X, where, and until when: one per publish or look-up. */
export interface XCaller {
  apiUrl: string;
  accessToken: string;
  fetch?: typeof fetch;
  signal: AbortSignal;
}

export interface XCall {
  method: 'GET' | 'POST';
  /** From the API root, e.g. `/2/tweets`. */
  path: string;
  query?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as multipart/form-data (a media chunk). */
  form?: FormData;
}

/** X's answer, whatever its status: the connector maps non-2xx answers (errors.ts). */
export interface XAnswer {
  status: number;
  ok: boolean;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  body: unknown;
  rateLimit: XRateLimit;
}

/**
 * One call to X's API with the user's token, through networkFetch so a failure says whether it can
 * have reached X (RequestNotSentError / NoAnswerError). A body that breaks off after the status
 * line is NoAnswerError too: X may have acted on the request.
 */
export async function callX(caller: XCaller, call: XCall): Promise<XAnswer> {
  const url = new URL(`${caller.apiUrl}${call.path}`);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = {
    Authorization: `Bearer ${caller.accessToken}`,
    Accept: 'application/json',
  };
  let body: string | FormData | undefined;
  if (call.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(call.json);
  } else if (call.form) {
    body = call.form;
  }
  const response = await networkFetch(
    url,
    { method: call.method, headers, signal: caller.signal, ...(body !== undefined && { body }) },
    caller.fetch,
  );
  return {
    status: response.status,
    ok: response.ok,
    body: await readJson(response),
    rateLimit: readRateLimit(response.headers),
  };
}
