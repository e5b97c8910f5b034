import type { ApiResult } from './request-state.js';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  if (status === 204) return { statusCode: 204, headers };
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}
