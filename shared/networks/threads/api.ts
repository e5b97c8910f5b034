import { networkFetch } from '../http/network-fetch.js';

export { isRecord, readJson } from '../http/json-answer.js';

/**
 * The Threads API version the connector calls (`/v1.0/...`, threads.md §2): bumped deliberately
 * after re-reading the publishing pages (docs/networks.md, Threads).
 */
export const THREADS_API_VERSION = 'v1.0';

export interface GraphCall {
  method: 'GET' | 'POST';
  /** Under the version: `/me`, `/{threads-user-id}/threads`, `/{container-id}`. */
  path: string;
  accessToken: string;
  /** Query parameters (GET) or form fields (POST). */
  params?: Record<string, string>;
  signal: AbortSignal;
}

/**
 * One call to graph.threads.net (THREADS_GRAPH_URL), through networkFetch so a failure says
 * whether the request can have reached Meta. The token travels in the Authorization header (Meta's
 * Graph hosts take a bearer token as they take `access_token`), never in a URL that could end up
 * in a log; a POST's parameters go as a form body, as Meta's own examples send them.
 */
export function makeThreadsApi(graphUrl: string, fetchImpl: typeof fetch | undefined) {
  return function call(request: GraphCall): Promise<Response> {
    const url = new URL(`${graphUrl}/${THREADS_API_VERSION}${request.path}`);
    const headers: Record<string, string> = { Authorization: `Bearer ${request.accessToken}` };
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
  };
}

export type ThreadsApi = ReturnType<typeof makeThreadsApi>;
