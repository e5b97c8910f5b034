import type { ApiEvent, ApiResult } from '../http/request-state.js';

/** The Fetch request an HTTP API (or Function URL) event stands for: what the SDK's transport reads. */
export function toFetchRequest(event: ApiEvent): Request {
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const url = `https://${event.requestContext.domainName}${event.rawPath}${query}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers.set(name, value);
  }
  const method = event.requestContext.http.method;
  const body =
    event.body === undefined || method === 'GET' || method === 'HEAD'
      ? undefined
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64')
        : event.body;
  return new Request(url, { method, headers, ...(body !== undefined && { body }) });
}

/** The transport's Fetch response as the Lambda result both event sources accept. */
export async function toApiResult(response: Response): Promise<ApiResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = await response.text();
  return { statusCode: response.status, headers, ...(body !== '' && { body }) };
}
