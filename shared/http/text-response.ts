import type { ApiResult } from './request-state.js';

/** An answer whose body is text of `mediaType` (an HTML page); an empty body is sent as none (a redirect). */
export function textResponse(
  status: number,
  body: string,
  mediaType: string,
  headers: Readonly<Record<string, string>> = {},
): ApiResult {
  if (body === '') return { statusCode: status, headers: { ...headers } };
  return {
    statusCode: status,
    headers: { 'Content-Type': `${mediaType}; charset=utf-8`, ...headers },
    body,
  };
}
