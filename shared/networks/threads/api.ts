import { type GraphCall, sendGraphCall } from '../graph-api/call.js';

export { isRecord, readJson } from '../http/json-answer.js';

/**
 * The Threads API version the connector calls (`/v1.0/...`, threads.md §2): bumped deliberately
 * after re-reading the publishing pages (docs/networks.md, Threads).
 */
export const THREADS_API_VERSION = 'v1.0';

export type { GraphCall } from '../graph-api/call.js';

/** One call to graph.threads.net (THREADS_GRAPH_URL), under the version above, a bearer token. */
export function makeThreadsApi(graphUrl: string, fetchImpl: typeof fetch | undefined) {
  return function call(request: GraphCall): Promise<Response> {
    return sendGraphCall(`${graphUrl}/${THREADS_API_VERSION}`, 'Bearer', request, fetchImpl);
  };
}

export type ThreadsApi = ReturnType<typeof makeThreadsApi>;
