import type { ApiEvent, ApiResult } from '../http/request-state.js';

/** The Fetch request an HTTP API (or Function URL) event stands for: what the SDK's transport reads. */
export function toFetchRequest(event: ApiEvent): Request {
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  // API Gateway sets X-Forwarded-Proto (always https there); the local host sets http.
  const scheme = event.headers?.['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  const url = `${scheme}://${event.requestContext.domainName}${event.rawPath}${query}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers.set(name, value);
  }
  // Payload format 2.0 carries cookies apart from the headers.
  if (event.cookies && event.cookies.length > 0) headers.set('cookie', event.cookies.join('; '));
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
    if (name !== 'set-cookie') headers[name] = value;
  });
  // Each cookie on its own: joined into one header, a cookie's own commas (Expires) would split it.
  const cookies = response.headers.getSetCookie();
  const body = await response.text();
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length > 0 && { cookies }),
    ...(body !== '' && { body }),
  };
}
