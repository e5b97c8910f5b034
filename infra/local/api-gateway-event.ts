import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ApiEvent } from '../../shared/http/request-state.js';

const TEXT_CONTENT = /^(application\/(json|[a-z.+-]*\+json|x-www-form-urlencoded|xml)|text\/)/i;

/** API Gateway joins repeated headers and query values with commas; so do we. */
function joinValues(values: Record<string, string | string[] | undefined>): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) joined[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return joined;
}

function queryParameters(search: URLSearchParams): Record<string, string> | undefined {
  const result: Record<string, string> = {};
  for (const name of new Set(search.keys())) result[name] = search.getAll(name).join(',');
  return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * The API Gateway HTTP API (payload format 2.0) event that AWS would hand the operation's Lambda
 * for this request, so the local host runs the handlers exactly as deployed.
 */
export function toApiGatewayEvent(input: {
  request: IncomingMessage;
  url: URL;
  body: Buffer;
  routeKey: string;
  pathParameters?: Record<string, string>;
}): ApiEvent {
  const { request, url, body } = input;
  const { cookie, ...received } = joinValues(request.headers);
  // As API Gateway adds its own, over whatever the client sent: how the request reached the host.
  const headers: Record<string, string> = { ...received, 'x-forwarded-proto': 'http' };
  // API Gateway hands cookies over apart from the headers, one entry per cookie.
  const cookies = cookie
    ?.split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const method = (request.method ?? 'GET').toUpperCase();
  const isText = body.length === 0 || TEXT_CONTENT.test(headers['content-type'] ?? 'application/json');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: input.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    ...(cookies && cookies.length > 0 && { cookies }),
    ...(queryParameters(url.searchParams) && { queryStringParameters: queryParameters(url.searchParams) }),
    ...(input.pathParameters && { pathParameters: input.pathParameters }),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: input.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 && {
      body: isText ? body.toString('utf8') : body.toString('base64'),
    }),
    isBase64Encoded: body.length > 0 && !isText,
  };
}
