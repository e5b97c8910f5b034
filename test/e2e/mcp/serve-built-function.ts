/**
 * Serves a built MCP function (its asset's `index.mjs`, argv[2]) on loopback as API Gateway would:
 * each HTTP request becomes the payload 2.0 event the local host makes (api-gateway-event.ts), its
 * answer the HTTP response. Run as its own process (the bundle reads its environment at import, as
 * a cold start does); prints `listening <port>` once ready.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { pathToFileURL } from 'node:url';
import { toApiGatewayEvent } from '../../../infra/local/api-gateway-event.js';
import { makeLambdaContext } from '../../../infra/local/lambda-context.js';
import type { ApiContext, ApiEvent } from '../../../shared/http/request-state.js';

interface BuiltFunctionResult {
  statusCode?: number;
  headers?: Record<string, string | number | boolean>;
  body?: string;
  isBase64Encoded?: boolean;
}
type BuiltHandler = (event: ApiEvent, context: ApiContext) => Promise<BuiltFunctionResult>;

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const bundle = process.argv[2];
if (!bundle) throw new Error('Usage: serve-built-function.ts <path of index.mjs>');
const { handler } = (await import(pathToFileURL(bundle).href)) as { handler: BuiltHandler };

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const event = toApiGatewayEvent({ request, url, body: await readBody(request), routeKey: 'ANY /mcp' });
  const result = await handler(event, makeLambdaContext('mcp'));
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)]));
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(result.body && result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
