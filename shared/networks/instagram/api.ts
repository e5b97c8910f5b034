import { networkFetch } from '../http/network-fetch.js';

export { isRecord, readJson } from '../http/json-answer.js';

/**
 * The Graph API version the connector calls (`/v23.0/...`): an unversioned call gets the oldest
 * version Meta still serves, which changes under us. Bumped deliberately after re-reading the
 * content-publishing pages (docs/networks.md, photo network).
 */
export const INSTAGRAM_GRAPH_VERSION = 'v23.0';

export interface GraphCall {
  method: 'GET' | 'POST';
  /** Under the version: `/me`, `/{ig-user-id}/media`, `/{container-id}`. */
  path: string;
  accessToken: string;
  /** Query parameters (GET) or form fields (POST). */
  params?: Record<string, string>;
  signal: AbortSignal;
}

/**
 * One call to graph.instagram.com (INSTAGRAM_GRAPH_URL), through networkFetch so a failure says
 * whether the request can have reached Meta. The token travels in the Authorization header, never
 * in a URL that could end up in a log; a POST's parameters go as a form body.
 */
export function makeInstagramApi(graphUrl: string, fetchImpl: typeof fetch | undefined) {
  return function call(request: GraphCall): Promise<Response> {
    const url = new URL(`${graphUrl}/${INSTAGRAM_GRAPH_VERSION}${request.path}`);
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

export type InstagramApi = ReturnType<typeof makeInstagramApi>;
