import type { Client } from 'openapi-fetch';
import type { paths } from './openapi.js';
import type { Timing } from './retry.js';

/** The typed openapi-fetch client of every path in the document. */
export type ApiClient = Client<paths>;

/**
 * What the helpers (posts.ts, media.ts) work with; apart from client.ts, which builds it and
 * imports the helpers, so neither side imports the other.
 */
export interface ClientContext {
  api: ApiClient;
  /** Plain fetch with the retry policy, no API key: for the presigned upload. */
  fetch: (request: Request) => Promise<Response>;
  timing: Timing;
}
