import { handle } from 'hono/aws-lambda';
import type { ApiEvent, ApiResult } from '../http/request-state.js';
import { makeDashboardApp } from './app.js';
import type { DashboardDeps } from './env.js';

/**
 * The dashboard as a Lambda handler for API Gateway's payload format 2.0 (`ANY /dashboard` and
 * `ANY /dashboard/{proxy+}`): Hono's adapter turns the event, cookies included, into a Fetch
 * request and the answer back, with each Set-Cookie in `cookies`. The local host calls the same.
 */
export function makeDashboardHandler(deps: DashboardDeps): (event: ApiEvent) => Promise<ApiResult> {
  const run = handle(makeDashboardApp(deps));
  return async (event) => {
    const result = await run(event);
    const cookies = 'cookies' in result && Array.isArray(result.cookies) ? (result.cookies as string[]) : [];
    return {
      statusCode: result.statusCode,
      headers: result.headers,
      body: result.body,
      isBase64Encoded: result.isBase64Encoded,
      ...(cookies.length > 0 && { cookies }),
    };
  };
}
