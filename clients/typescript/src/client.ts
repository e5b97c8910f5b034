import createFetchClient from 'openapi-fetch';
import type { ApiClient, ClientContext } from './context.js';
import { makeMediaHelpers } from './media.js';
import type { paths } from './openapi.js';
import { makePostHelpers } from './posts.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, realTiming, retryingFetch, type Timing } from './retry.js';

export interface ClientOptions {
  /** The service's address, e.g. http://localhost:3000 (no /v1: the paths carry it). */
  baseUrl: string;
  /** smcp_…: sent as Authorization: Bearer on every API call (never to a presigned upload URL). */
  apiKey: string;
  /** Another fetch (a proxy, a test stub); globalThis.fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** The retry policy; the interface's recommendation by default. `{ maxRetries: 0 }` turns it off. */
  retry?: Partial<RetryPolicy>;
  /** How the client sleeps, draws jitter and reads the time: tests inject their own. */
  timing?: Partial<Timing>;
}

export function createClient(options: ClientOptions) {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timing: Timing = { ...realTiming, ...options.timing };
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const fetch = retryingFetch(baseFetch, policy, timing);
  const api: ApiClient = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    fetch,
    headers: { Authorization: `Bearer ${options.apiKey}` },
  });
  const context: ClientContext = { api, fetch, timing };
  return {
    /** Every operation, typed from the document: api.GET('/v1/workspaces/{workspace_id}/posts', …). */
    api,
    ...makePostHelpers(context),
    ...makeMediaHelpers(context),
  };
}

export type SocialPublishingClient = ReturnType<typeof createClient>;
