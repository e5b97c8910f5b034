import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { PayloadTooLargeError, toEnvelope } from '../../shared/domain/errors.js';
import { jsonResponse } from '../../shared/http/json-response.js';
import type { Operation } from '../../shared/http/operation.js';
import type { ApiHandler } from '../../shared/http/operation-handler.js';
import { requestIdFrom } from '../../shared/http/request-id.js';
import type { ApiResult } from '../../shared/http/request-state.js';
import { makeRouteMatcher } from '../../shared/http/route-matcher.js';
import type { Logger } from '../../shared/ports/logger.js';
import { toApiGatewayEvent } from './api-gateway-event.js';
import { makeLambdaContext } from './lambda-context.js';

/** API Gateway's own payload ceiling; under it, the handlers' 1 MiB limit answers as in AWS. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new BodyTooLarge());
        request.removeAllListeners('data');
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function writeResult(response: ServerResponse, result: ApiResult): void {
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  response.writeHead(result.statusCode ?? 200, headers);
  if (result.body === undefined) {
    response.end();
    return;
  }
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

export interface LocalApiRoutes {
  operations: readonly Operation[];
  /** The operation's own Lambda handler. */
  handlerFor(operation: Operation): ApiHandler;
  /** What API Gateway's `$default` route runs: 404 and 405 envelopes. */
  fallback: ApiHandler;
}

export interface LocalApiServerOptions {
  /** Where the server's own failures go (the handlers log through their deps). */
  logger: Logger;
}

/** An HTTP server that does API Gateway's part: routes each request and invokes the Lambda handler. */
export function createLocalApiServer(routes: LocalApiRoutes, options: LocalApiServerOptions): Server {
  const match = makeRouteMatcher(routes.operations);
  return createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    try {
      const body = await readBody(request, GATEWAY_MAX_BODY_BYTES);
      const method = (request.method ?? 'GET').toUpperCase();
      const route = match(method, url.pathname);
      if (route.kind === 'found') {
        const event = toApiGatewayEvent({
          request,
          url,
          body,
          routeKey: `${route.operation.method} ${route.operation.path}`,
          pathParameters: route.pathParameters,
        });
        writeResult(
          response,
          await routes.handlerFor(route.operation)(event, makeLambdaContext(route.operation.id)),
        );
        return;
      }
      const event = toApiGatewayEvent({ request, url, body, routeKey: '$default' });
      writeResult(response, await routes.fallback(event, makeLambdaContext('fallback')));
    } catch (error) {
      const requestId = requestIdFrom(request.headers['x-request-id']?.toString());
      const failure =
        error instanceof BodyTooLarge
          ? jsonResponse(413, toEnvelope(new PayloadTooLargeError(GATEWAY_MAX_BODY_BYTES)))
          : jsonResponse(500, {
              error: 'internal_error',
              message: 'The local host failed to serve the request.',
            });
      if (!(error instanceof BodyTooLarge)) {
        options.logger.error('local host: failed to serve a request', { requestId, error });
      }
      writeResult(response, {
        ...failure,
        headers: { ...failure.headers, 'X-Request-Id': requestId, Connection: 'close' },
      });
    }
  });
}
