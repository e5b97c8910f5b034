import { toApiResult, toFetchRequest } from '../http/fetch-bridge.js';
import type { ApiEvent, ApiResult } from '../http/request-state.js';
import { makeDashboardApp } from './app.js';
import type { DashboardInput } from './env.js';

/**
 * The dashboard as a Lambda handler for API Gateway's payload format 2.0 (`ANY /dashboard` and
 * `ANY /dashboard/{proxy+}`): the event, cookies included, becomes a Fetch request for the Hono
 * app, and its answer the result, each Set-Cookie in `cookies`. The local host calls the same.
 */
export function makeDashboardHandler(input: DashboardInput): (event: ApiEvent) => Promise<ApiResult> {
  const app = makeDashboardApp(input);
  return async (event) =>
    toApiResult(await app.fetch(toFetchRequest(event), { sourceIp: event.requestContext.http.sourceIp }));
}
