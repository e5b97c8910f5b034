/**
 * One cold start, in a fresh Node process: `npm run bench:bundles` bundles this file on its own and
 * forks it once per run (see bench/bundles.ts). It never runs under tsx, so the figures carry no
 * loader overhead.
 *
 * Steps: start a stub of the AWS APIs on loopback, point every SDK client at it (AWS_ENDPOINT_URL,
 * which SDK v3 reads for any client built without an explicit endpoint), import the Lambda bundle,
 * call its handler once, and report both timings to the parent over IPC. Nothing leaves the machine.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import module from 'node:module';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { makeLambdaContext } from '../infra/local/lambda-context.js';
import {
  COMPILE_CACHE_VARIABLE,
  type ColdStartJob,
  type ColdStartResult,
  DYNAMO_ITEMS_VARIABLE,
  STUB_ORIGIN_PLACEHOLDER,
} from './cold-start-protocol.js';

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const awsCalls: Record<string, number> = {};

type Key = Record<string, { S?: string }>;
type Item = Record<string, unknown> & Key;

/** The items the parent put in the table (bench/cold-start-protocol.ts), found by pk and sk. */
const dynamoItems = JSON.parse(process.env[DYNAMO_ITEMS_VARIABLE] ?? '[]') as Item[];
const findItem = (key: Key | undefined) =>
  dynamoItems.find((item) => item.pk?.S === key?.pk?.S && item.sk?.S === key?.sk?.S);

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The smallest valid answers: DynamoDB finds nothing, SQS accepts the message (with the MD5 the
 * client checks), anything else (Scheduler, S3) gets an empty success, S3 HEAD a 404.
 */
async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  const target = request.headers['x-amz-target'];
  const json = (status: number, value: unknown, contentType = 'application/x-amz-json-1.0') => {
    response.writeHead(status, { 'Content-Type': contentType });
    response.end(JSON.stringify(value));
  };
  if (typeof target === 'string') {
    const [service = '', operation = ''] = target.split('.');
    const name = `${service.startsWith('DynamoDB') ? 'dynamodb' : service === 'AmazonSQS' ? 'sqs' : service}:${operation}`;
    awsCalls[name] = (awsCalls[name] ?? 0) + 1;
    switch (target) {
      case 'DynamoDB_20120810.Query':
      case 'DynamoDB_20120810.Scan':
        return json(200, { Items: [], Count: 0, ScannedCount: 0 });
      case 'DynamoDB_20120810.GetItem': {
        const item = findItem((JSON.parse(body) as { Key?: Key }).Key);
        return json(200, item ? { Item: item } : {});
      }
      case 'DynamoDB_20120810.BatchGetItem': {
        const requested = (JSON.parse(body) as { RequestItems: Record<string, { Keys: Key[] }> })
          .RequestItems;
        const responses = Object.fromEntries(
          Object.entries(requested).map(([table, { Keys }]) => [
            table,
            Keys.flatMap((key) => findItem(key) ?? []),
          ]),
        );
        return json(200, { Responses: responses, UnprocessedKeys: {} });
      }
      case 'AmazonSQS.SendMessage': {
        const messageBody = String((JSON.parse(body) as { MessageBody?: string }).MessageBody ?? '');
        return json(200, {
          MessageId: randomUUID(),
          MD5OfMessageBody: createHash('md5').update(messageBody).digest('hex'),
        });
      }
      default:
        return json(200, {});
    }
  }
  const name = `${request.method} ${new URL(request.url ?? '/', 'http://stub').pathname}`;
  awsCalls[name] = (awsCalls[name] ?? 0) + 1;
  if (request.method === 'HEAD') {
    response.writeHead(404);
    response.end();
    return;
  }
  json(200, {}, 'application/json');
}

/** An MCP answer's gist: how many tools were listed, a tool result's REST status, or the JSON-RPC error. */
function describeJsonRpc(body: unknown): string {
  if (typeof body !== 'string') return '';
  try {
    const message = JSON.parse(body) as {
      jsonrpc?: string;
      result?: {
        tools?: unknown[];
        isError?: boolean;
        _meta?: { status?: number };
        protocolVersion?: string;
      };
      error?: { code?: number };
    };
    if (message.jsonrpc !== '2.0') return '';
    if (message.error) return ` error ${message.error.code}`;
    const result = message.result;
    if (result?.tools) return ` ${result.tools.length} tools`;
    if (result?._meta?.status !== undefined)
      return ` tool ${result._meta.status}${result.isError ? ' isError' : ''}`;
    if (result?.protocolVersion) return ` initialize ${result.protocolVersion}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}

function describeOutcome(result: unknown): string {
  if (result === undefined) return 'done';
  if (typeof result === 'object' && result !== null) {
    const value = result as Record<string, unknown>;
    if (typeof value.statusCode === 'number') return `${value.statusCode}${describeJsonRpc(value.body)}`;
    if (Array.isArray(value.batchItemFailures)) return `${value.batchItemFailures.length} batch failures`;
    // The reconciler's report: counters.
    if (Object.values(value).every((count) => count === 0)) return 'report, all 0';
    return JSON.stringify(value);
  }
  return String(result);
}

/**
 * Node 22's compile cache for the bundle's modules only (bench/compile-cache.ts), enabled inside the
 * timed import as a function's first line would (NODE_COMPILE_CACHE would also cache this script's
 * own entry into the asset's folder). Node 20 has no compile cache: the variable is never set there.
 */
function enableCompileCache(directory: string | undefined): void {
  if (!directory) return;
  // @types/node is Node 20's, which has no enableCompileCache.
  const enable = (
    module as { enableCompileCache?: (directory: string) => { status: number; message?: string } }
  ).enableCompileCache;
  if (!enable)
    throw new Error(`${COMPILE_CACHE_VARIABLE} is set, but Node ${process.version} has no compile cache.`);
  enable(directory);
}

async function main(): Promise<void> {
  const job = JSON.parse(process.env.BENCH_JOB ?? '') as ColdStartJob;
  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const [name, value] of Object.entries(process.env)) {
    if (value?.includes(STUB_ORIGIN_PLACEHOLDER))
      process.env[name] = value.replaceAll(STUB_ORIGIN_PLACEHOLDER, origin);
  }
  process.env.AWS_ENDPOINT_URL = origin;

  const started = performance.now();
  enableCompileCache(process.env[COMPILE_CACHE_VARIABLE]);
  const bundle = (await import(pathToFileURL(job.bundle).href)) as { handler: Handler };
  const imported = performance.now();
  const result = await bundle.handler(job.event, makeLambdaContext(job.functionName));
  const invoked = performance.now();
  const followUps: { ms: number; outcome: string }[] = [];
  for (const event of job.followUps ?? []) {
    const before = performance.now();
    const answer = await bundle.handler(event, makeLambdaContext(job.functionName));
    followUps.push({ ms: performance.now() - before, outcome: describeOutcome(answer) });
  }

  const report: ColdStartResult = {
    importMs: imported - started,
    invokeMs: invoked - imported,
    outcome: describeOutcome(result),
    awsCalls,
    ...(followUps.length > 0 && { followUps }),
  };
  server.close();
  process.send?.(report, () => process.exit(0));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
