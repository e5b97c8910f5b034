import { type GraphCall, sendGraphCall } from '../graph-api/call.js';

export { isRecord, readJson } from '../http/json-answer.js';

/**
 * The Graph API version the connector calls (`/v23.0/...`): an unversioned call gets the oldest
 * version Meta still serves, which changes under us. Bumped deliberately after re-reading the
 * content-publishing pages (docs/networks.md, photo network).
 */
export const INSTAGRAM_GRAPH_VERSION = 'v23.0';

export type { GraphCall } from '../graph-api/call.js';

/** One call to graph.instagram.com (INSTAGRAM_GRAPH_URL), under the version above, a bearer token. */
export function makeInstagramApi(graphUrl: string, fetchImpl: typeof fetch | undefined) {
  return function call(request: GraphCall): Promise<Response> {
    return sendGraphCall(`${graphUrl}/${INSTAGRAM_GRAPH_VERSION}`, 'Bearer', request, fetchImpl);
  };
}

export type InstagramApi = ReturnType<typeof makeInstagramApi>;
