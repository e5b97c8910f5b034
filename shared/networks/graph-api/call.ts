import { networkFetch } from '../http/network-fetch.js';

/** One call to a Meta Graph API host. */
export interface GraphCall {
  method: 'GET' | 'POST';
  /** Under the version: `/me`, `/{user-id}/media`, `/{container-id}`. */
  path: string;
  accessToken: string;
  /** Query parameters (GET) or form fields (POST). */
  params?: Record<string, string>;
  signal: AbortSignal;
}

/**
 * Sends a Graph call to `versionUrl` (host and version, e.g. `https://graph.example/v23.0`) through
 * networkFetch, so a failure says whether the request can have reached Meta. The token travels in
 * the Authorization header under the host's `scheme` (Meta's Graph hosts take it as they take
 * `access_token`), never in a URL that could end up in a log; a POST's parameters go as a form
 * body, as Meta's own examples send them.
 */
export function sendGraphCall(
  versionUrl: string,
  scheme: 'Bearer' | 'OAuth',
  request: GraphCall,
  fetchImpl: typeof fetch | undefined,
): Promise<Response> {
  const url = new URL(`${versionUrl}${request.path}`);
  const headers: Record<string, string> = { Authorization: `${scheme} ${request.accessToken}` };
  let body: string | undefined;
  if (request.method === 'GET') {
    for (const [name, value] of Object.entries(request.params ?? {})) url.searchParams.set(name, value);
  } else {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.params ?? {}).toString();
  }
  return networkFetch(
    url,
    { method: request.method, headers, ...(body !== undefined && { body }), signal: request.signal },
    fetchImpl,
  );
}
