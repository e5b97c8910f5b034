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
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { makeLambdaContext } from '../infra/local/lambda-context.js';
import { type ColdStartJob, type ColdStartResult, STUB_ORIGIN_PLACEHOLDER } from './cold-start-protocol.js';

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const awsCalls: Record<string, number> = {};

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
      case 'DynamoDB_20120810.BatchGetItem':
        return json(200, { Responses: {}, UnprocessedKeys: {} });
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

function describeOutcome(result: unknown): string {
  if (result === undefined) return 'done';
  if (typeof result === 'object' && result !== null) {
    const value = result as Record<string, unknown>;
    if (typeof value.statusCode === 'number') return String(value.statusCode);
    if (Array.isArray(value.batchItemFailures)) return `${value.batchItemFailures.length} batch failures`;
    // The reconciler's report: counters.
    if (Object.values(value).every((count) => count === 0)) return 'report, all 0';
    return JSON.stringify(value);
  }
  return String(result);
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
  const module = (await import(pathToFileURL(job.bundle).href)) as { handler: Handler };
  const imported = performance.now();
  const result = await module.handler(job.event, makeLambdaContext(job.functionName));
  const invoked = performance.now();

  const report: ColdStartResult = {
    importMs: imported - started,
    invokeMs: invoked - imported,
    outcome: describeOutcome(result),
    awsCalls,
  };
  server.close();
  process.send?.(report, () => process.exit(0));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
