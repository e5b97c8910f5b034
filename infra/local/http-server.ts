import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { PayloadTooLargeError, toEnvelope } from '../../shared/domain/errors.js';
import { jsonResponse } from '../../shared/http/json-response.js';
import { MAX_BODY_BYTES } from '../../shared/http/middlewares/body-size-limit.js';
import type { Operation } from '../../shared/http/operation.js';
import type { ApiHandler } from '../../shared/http/operation-handler.js';
import { requestIdFrom } from '../../shared/http/request-id.js';
import type { ApiEvent, ApiResult } from '../../shared/http/request-state.js';
import { makeRouteMatcher } from '../../shared/http/route-matcher.js';
import type { Logger } from '../../shared/ports/logger.js';
import { type Metrics, noMetrics } from '../../shared/ports/metrics.js';
import { toApiGatewayEvent } from './api-gateway-event.js';
import type { AuthFailureLimiter } from './auth-failure-limiter.js';
import { makeLambdaContext } from './lambda-context.js';
import { type Refusal, rawHttpResponse, refusalForClientError } from './raw-refusal.js';
import { BodyRefused, readBody } from './read-body.js';

/**
 * API Gateway's own payload ceiling: up to it the body reaches the handler, whose 1 MiB limit
 * answers as in AWS. Past it the local host stops reading and answers that same 413 itself: the
 * service has one body limit, and every 413 names it (MAX_BODY_BYTES), never this ceiling.
 */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** How long a request's body may take to arrive after its headers (LOCAL_BODY_TIMEOUT_SECONDS). */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

function writeResult(response: ServerResponse, result: ApiResult): void {
  const headers: Record<string, string | string[]> = Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  // Payload format 2.0 answers cookies apart from the headers; API Gateway sends each as Set-Cookie.
  if (result.cookies && result.cookies.length > 0) headers['set-cookie'] = result.cookies;
  response.writeHead(result.statusCode ?? 200, headers);
  if (result.body === undefined) {
    response.end();
    return;
  }
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

/**
 * The request target as a URL on this host. Only origin-form (`/path?query`) and absolute-form
 * targets name a resource; anything else (`*`, an authority) is undefined. A path starting with
 * `//` stays a path (resolving it against a base would read its first segment as a host name).
 */
function requestUrl(target: string | undefined): URL | undefined {
  try {
    if (target?.startsWith('/')) return new URL(`http://127.0.0.1${target}`);
    if (target && /^https?:\/\//i.test(target)) return new URL(target);
  } catch {
    // Not a URL at all: refused below like any other target that names nothing.
  }
  return undefined;
}

const invalidRequest = (message: string): Refusal => ({
  status: 400,
  envelope: { error: 'INVALID_REQUEST', message },
});

export interface LocalApiRoutes {
  operations: readonly Operation[];
  /** The operation's own Lambda handler. */
  handlerFor(operation: Operation): ApiHandler;
  /** What API Gateway's `$default` route runs: 404 and 405 envelopes. */
  fallback: ApiHandler;
  /** The MCP function, behind `ANY /mcp` (it answers every method itself). */
  mcp?: ApiHandler;
  /** The dashboard function, behind `ANY /dashboard` and `ANY /dashboard/{proxy+}`. */
  dashboard?: (event: ApiEvent) => Promise<ApiResult>;
}

/** Where the dashboard is mounted (shared/dashboard/env.ts DASHBOARD_BASE). */
const DASHBOARD_PATH = /^\/dashboard(\/|$)/;

/** The MCP endpoint's path, as the HTTP API routes it. */
export const MCP_PATH = '/mcp';

export interface LocalApiServerOptions {
  /** Where the server's own failures and refusals go (the handlers log through their deps). */
  logger: Logger;
  /** Counts the requests the server itself refuses with 429. */
  metrics?: Metrics;
  /**
   * Refuses, before any handler runs, key-authenticated requests from an address that has had
   * too many 401 answers (see auth-failure-limiter.ts); none when absent.
   */
  authFailures?: AuthFailureLimiter;
  /**
   * How long the whole body may take to arrive once the headers have; a request still missing part
   * of its body then is answered 408 and its connection closed. DEFAULT_BODY_TIMEOUT_MS by default.
   */
  bodyTimeoutMs?: number;
}

/**
 * An HTTP server that does API Gateway's part: routes each request and invokes the Lambda handler.
 * Whatever Node would answer on its own (a request it cannot parse, headers over its limit, a
 * time-out, a missing Host, an `Expect` it does not know, CONNECT) is answered here instead, with
 * the error envelope and an X-Request-Id like every other response.
 */
export function createLocalApiServer(routes: LocalApiRoutes, options: LocalApiServerOptions): Server {
  const match = makeRouteMatcher(routes.operations);
  const { logger, authFailures } = options;
  const metrics = options.metrics ?? noMetrics;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const tooLarge = new PayloadTooLargeError(MAX_BODY_BYTES);
  const bodyLimits = {
    maxBytes: GATEWAY_MAX_BODY_BYTES,
    tooLarge: { status: tooLarge.status, envelope: toEnvelope(tooLarge) },
    timeoutMs: bodyTimeoutMs,
  };
  /** The response being written on each connection: a parse error that follows it waits its turn. */
  const answering = new WeakMap<Duplex, ServerResponse>();
  /** Connections already given their last answer (the parser may report the same error again). */
  const refused = new WeakSet<Duplex>();
  /**
   * The body being read on each connection: a parse error or time-out in the middle of it is that
   * request's answer, given through its own response (a raw refusal would wait for it forever).
   */
  const readingBody = new WeakMap<Duplex, { request: IncomingMessage; refuse: (refusal: Refusal) => void }>();

  const logRefusal = (refusal: Refusal, requestId: string) =>
    logger.info('local host: refused a request it could not read', {
      requestId,
      status: refusal.status,
      error: refusal.envelope.error,
    });

  const answer = (response: ServerResponse, refusal: Refusal, requestId: string) =>
    writeResult(
      response,
      jsonResponse(refusal.status, refusal.envelope, {
        ...refusal.headers,
        'X-Request-Id': requestId,
        Connection: 'close',
      }),
    );

  /** Writes a whole response to a connection that has no response object, then closes it. */
  const refuseConnection = (socket: Duplex, refusal: Refusal, requestId: string) => {
    if (refused.has(socket)) return;
    refused.add(socket);
    // A body still incomplete: its own request is refused. A complete one (whose excess bytes
    // did not parse) is answered first, and the excess after it.
    const reading = readingBody.get(socket);
    if (reading && !reading.request.complete) {
      reading.refuse(refusal);
      return;
    }
    const send = () => {
      if (socket.writable) socket.end(rawHttpResponse(refusal, requestId));
      else socket.destroy();
    };
    // A pipelined request answered first (a body longer than its Content-Length, whose excess
    // did not parse): its response goes out whole, then this one.
    const pending = answering.get(socket);
    if (pending && !pending.writableFinished) pending.once('close', send);
    else send();
    logRefusal(refusal, requestId);
  };

  /** The request's body, refused (BodyRefused) when too large, too slow or unparseable. */
  const bodyOf = async (request: IncomingMessage): Promise<Buffer> => {
    const socket = request.socket;
    const reading = readBody(request, bodyLimits);
    readingBody.set(socket, { request, refuse: reading.refuse });
    try {
      return await reading.body;
    } finally {
      readingBody.delete(socket);
    }
  };

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = requestIdFrom(request.headers['x-request-id']?.toString());
    try {
      // Node's requireHostHeader would answer a bare 400; API Gateway needs the Host too.
      if (request.httpVersion === '1.1' && request.headers.host === undefined) {
        answer(response, invalidRequest('An HTTP/1.1 request needs a Host header.'), requestId);
        return;
      }
      const url = requestUrl(request.url);
      if (!url) {
        answer(response, invalidRequest('The request target is not a path.'), requestId);
        return;
      }
      const method = (request.method ?? 'GET').toUpperCase();
      const route = match(method, url.pathname);
      const mcp = url.pathname === MCP_PATH ? routes.mcp : undefined;
      const dashboard = DASHBOARD_PATH.test(url.pathname) ? routes.dashboard : undefined;
      const address = request.socket.remoteAddress ?? 'unknown';
      const authorization = request.headers.authorization;
      const checksKey = mcp !== undefined || (route.kind === 'found' && route.operation.auth === 'apiKey');
      // Before the body is read or a handler runs: a flood of bad keys costs no key look-up.
      const tooManyFailures = checksKey ? authFailures?.check(address, authorization) : undefined;
      if (tooManyFailures) {
        const { retryAfterSeconds } = tooManyFailures;
        answer(
          response,
          {
            status: 429,
            envelope: {
              error: 'rate_limited',
              message: `Too many requests with a missing or invalid API key from this address. Retry after ${retryAfterSeconds} seconds.`,
            },
            headers: { 'Retry-After': String(retryAfterSeconds) },
          },
          requestId,
        );
        metrics.count('RateLimitedRequests', { family: 'auth-failures' });
        logger.info('local host: refused an address over its failed-authentication limit', {
          requestId,
          sourceIp: address,
          retryAfterSeconds,
        });
        return;
      }
      const body = await bodyOf(request);
      if (mcp) {
        const event = toApiGatewayEvent({ request, url, body, routeKey: `ANY ${MCP_PATH}` });
        const result = await mcp(event, makeLambdaContext('mcp'));
        authFailures?.record(address, authorization, result.statusCode ?? 200);
        writeResult(response, result);
        return;
      }
      if (dashboard) {
        const routeKey = url.pathname === '/dashboard' ? 'ANY /dashboard' : 'ANY /dashboard/{proxy+}';
        const event = toApiGatewayEvent({ request, url, body, routeKey });
        writeResult(response, await dashboard(event));
        return;
      }
      if (route.kind === 'found') {
        const event = toApiGatewayEvent({
          request,
          url,
          body,
          routeKey: `${route.operation.method} ${route.operation.path}`,
          pathParameters: route.pathParameters,
        });
        const result = await routes.handlerFor(route.operation)(event, makeLambdaContext(route.operation.id));
        if (checksKey) authFailures?.record(address, authorization, result.statusCode ?? 200);
        writeResult(response, result);
        return;
      }
      const event = toApiGatewayEvent({ request, url, body, routeKey: '$default' });
      writeResult(response, await routes.fallback(event, makeLambdaContext('fallback')));
    } catch (error) {
      if (error instanceof BodyRefused) {
        // Connection: close, so the rest of the body (or the bytes the parser refused) is never read.
        answer(response, error.refusal, requestId);
        logRefusal(error.refusal, requestId);
        return;
      }
      // The caller went away mid-request: there is nobody to answer.
      if (request.destroyed && !request.complete) return;
      logger.error('local host: failed to serve a request', { requestId, error });
      if (response.headersSent) {
        response.destroy();
        return;
      }
      answer(
        response,
        {
          status: 500,
          envelope: { error: 'internal_error', message: 'The local host failed to serve the request.' },
        },
        requestId,
      );
    }
  }

  // Node's own Host check answers a bare 400: serve() answers it with the envelope instead.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    const socket = request.socket;
    answering.set(socket, response);
    response.once('close', () => {
      if (answering.get(socket) === response) answering.delete(socket);
    });
    void serve(request, response);
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    // A connection reset by the caller: nobody is left to read an answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    refuseConnection(socket, refusalForClientError(error), requestIdFrom(undefined));
  });
  // Without a listener Node drops a CONNECT silently; it is a method no route has.
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    refuseConnection(
      socket,
      {
        status: 405,
        envelope: { error: 'method_not_allowed', message: 'CONNECT is not allowed on this API.' },
      },
      requestIdFrom(request.headers['x-request-id']?.toString()),
    );
  });
  // Without a listener Node answers a bare 417 to an Expect other than 100-continue.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    answer(
      response,
      {
        status: 417,
        envelope: {
          error: 'expectation_failed',
          message:
            'The Expect header asks for something this API does not do; only 100-continue is supported.',
        },
      },
      requestIdFrom(request.headers['x-request-id']?.toString()),
    );
  });
  return server;
}
