/**
 * `npm run bench:bundles`: each Lambda's bundle, built as CDK builds it, and a cold-start proxy.
 *
 * 1. Bundles each operation's generated entry (infra/operation-entries.ts, as the stack does), the
 *    other entries of `functions/`, with esbuild and the options of
 *    infra/constructs/service-function.ts (ESM, minified, source map without sources, node22, the
 *    createRequire banner, nothing external, the Lambda aliases: LAMBDA_ALIASES), into a temporary
 *    folder; and the reference: the build every operation ran before issue 15, one bundle of the
 *    whole registry (bench/all-operations-entry.ts), without the alias, run with
 *    NODE_OPTIONS=--enable-source-maps (today's sources, so zod's import is already the lighter one:
 *    that bundle was 1.51 MB before, 1.13 MB now).
 * 2. Prints each bundle's size: bytes, KiB, gzip KiB (about what the deployment zip costs) and the
 *    source map's size; each operation's beside the reference and the target (<= 350 KiB).
 * 3. For each function (and several operations, the largest included, each beside the reference
 *    bundle answering the same first request), forks a fresh
 *    Node process (bench/cold-start-child.ts) with the function's environment set to dummy values
 *    and the credentials Lambda gives; the child stubs the AWS APIs on loopback, then times the
 *    bundle's import and its first invocation with performance.now(). Three runs each
 *    (BENCH_RUNS); the median is printed. BENCH_SOURCE_MAPS=eager runs every bundle with
 *    --enable-source-maps, to see what the flag costs. Every cold start runs on the bench's Node
 *    (CI's 20) and again on Node 22, which Lambda runs (the columns marked 22; bench/bench-node.ts:
 *    BENCH_NODE22, or the `node` package at the version .ci/run pins, installed once).
 *    Then every operation's import on its own bundle, on both, for issue 32's targets: median
 *    <= 350 KiB and <= 50 ms, none over 500 KiB or 70 ms.
 * 4. The MCP function as the stack builds it (issue 32): its generated entry, split into chunks
 *    (bench/mcp-bundle.ts), its size whole and loaded at cold start, and cold starts with a known
 *    key (bench/mcp-requests.ts): a first `initialize`, `tools/list`, `tools/call` (each call beside
 *    the same request on the operation's own bundle) and a session in one instance.
 *    `BENCH_ONLY=mcp` runs this part alone.
 * 4b. The dashboard function as the stack builds it (issue 32): functions/dashboard.ts, split into
 *    chunks (bench/dashboard-bundle.ts), its size whole and loaded at cold start, and cold starts
 *    answering the sign-in page, a page behind sign-in without a session (the redirect) and with one
 *    (bench/dashboard-requests.ts). `BENCH_ONLY=dashboard` runs this part alone.
 * 5. What `zod/mini` would save on the request path (bench/zod-mini.ts, issue 32, item 3).
 * 6. Node 22's compile cache shipped in the asset (bench/compile-cache.ts, issue 32, item 5): an
 *    operation, the MCP function's `tools/list` and the delivery worker, imported without and with
 *    a cache made at the asset's path and left read-only, and what a mismatched cache does.
 *    `BENCH_ONLY=compile-cache` runs this part alone.
 *
 * A proxy, not Lambda: no runtime bootstrap, no code download, and a whole core where Lambda gives
 * a share that scales with memory (about 0.6 vCPU at 1024 MB), so compare the rows with one
 * another, not with a deployed figure.
 * Not a test: nothing is asserted.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent, S3Event, ScheduledEvent, SQSEvent } from 'aws-lambda';
import { type BuildOptions, build, version as esbuildVersion } from 'esbuild';
import { LAMBDA_BUILD_OPTIONS } from '../infra/constructs/lambda-bundling.js';
import { writeOperationEntry } from '../infra/operation-entries.js';
import { functionEntry, repoRoot } from '../infra/paths.js';
import { TABLES } from '../shared/adapters/dynamodb/tables.js';
import { newId } from '../shared/domain/ids.js';
import { mediaObjectKey } from '../shared/domain/media.js';
import type { Post } from '../shared/domain/posts.js';
import type { ApiEvent } from '../shared/http/request-state.js';
import { operationById, operations } from '../shared/operations/registry.js';
import { type BenchNode, currentNode, node22 } from './bench-node.js';
import {
  type ColdStartJob,
  type ColdStartResult,
  DYNAMO_ITEMS_VARIABLE,
  STUB_ORIGIN_PLACEHOLDER,
} from './cold-start-protocol.js';
import { formatCompileCache, measureCompileCache } from './compile-cache.js';
import { type DashboardBuilt, dashboardBundle, dashboardTopInputs } from './dashboard-bundle.js';
import { DASHBOARD_ITEMS, SESSION_COOKIES } from './dashboard-requests.js';
import { type McpBuilt, mcpBundle, mcpTopInputs } from './mcp-bundle.js';
import {
  API_KEY,
  DYNAMO_ITEMS,
  initialize,
  initialized,
  type McpRequest,
  toolsCall,
  toolsList,
  UNKNOWN_KEY as UNKNOWN_MCP_KEY,
} from './mcp-requests.js';
import type { SplitBuilt } from './split-bundle.js';
import { runBenchmark } from './support.js';
import { zodMiniSection } from './zod-mini.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/**
 * `BENCH_SOURCE_MAPS=eager` runs the bundles with NODE_OPTIONS=--enable-source-maps, as the
 * functions did before their maps were read only on an error (shared/runtime/lazy-source-maps.ts),
 * to see what parsing the map at every cold start costs.
 */
const SOURCE_MAPS = process.env.BENCH_SOURCE_MAPS === 'eager';

/** The targets of an operation's bundle (issue 15). */
const TARGET_BYTES = 350 * 1024;
const TARGET_IMPORT_MS = 50;

/** The entries of `functions/` (each operation's entry is generated, and `reference` is bench/all-operations-entry.ts). */
const FUNCTION_ENTRIES = [
  'fallback',
  'outbox',
  'delivery-worker',
  'reconciler',
  'media-importer',
  'media-uploaded',
  'webhook-fan-out',
  'webhook-dispatcher',
  'token-refresher',
] as const;
/**
 * `operation:<id>` is an operation's own bundle; `reference` the one bundle of every operation;
 * `mcp` the MCP function, built with code splitting from its generated entry (mcpBundle), and
 * `dashboard` functions/dashboard.ts, split too (dashboardBundle).
 */
export type Entry =
  | (typeof FUNCTION_ENTRIES)[number]
  | 'mcp'
  | 'dashboard'
  | 'reference'
  | `operation:${string}`;

const isOperation = (entry: Entry): entry is `operation:${string}` => entry.startsWith('operation:');

function entryFile(entry: Entry): string {
  if (entry === 'reference') return join(repoRoot, 'bench/all-operations-entry.ts');
  if (isOperation(entry)) return writeOperationEntry(operationById(entry.slice('operation:'.length)));
  if (entry === 'mcp') throw new Error('The MCP function is split: mcpBundle builds it.');
  if (entry === 'dashboard') throw new Error('The dashboard function is split: dashboardBundle builds it.');
  return functionEntry(entry);
}

/**
 * What NodejsFunction passes to esbuild for a ServiceFunction (`bundling` in service-function.ts;
 * aws-cdk-lib turns it into `esbuild --bundle <entry> --target=node22 --platform=node --format=esm
 * --minify --sourcemap --sources-content=false --banner:js=… --main-fields=module,main`, run from
 * the project root, with no tsconfig flag and no externals).
 */
export function cdkBuildOptions(entry: Entry, outdir: string): BuildOptions {
  // The reference is the build before the aliases (see the header).
  const { alias: _alias, ...withoutAliases } = LAMBDA_BUILD_OPTIONS;
  return {
    ...(entry === 'reference' ? withoutAliases : LAMBDA_BUILD_OPTIONS),
    entryPoints: [entryFile(entry)],
    outfile: join(outdir, 'index.mjs'),
  };
}

/**
 * The settings copied above, looked for in the construct's source: when someone changes them
 * there, this says so instead of measuring another build than the one that deploys.
 */
function constructDrift(): string[] {
  const source = readFileSync(join(repoRoot, 'infra/constructs/service-function.ts'), 'utf8');
  const expected = [
    'format: OutputFormat.ESM',
    "target: 'node22'",
    "mainFields: ['module', 'main']",
    'minify: true',
    'sourceMap: true',
    'sourcesContent: false',
    'externalModules: []',
    'banner: REQUIRE_BANNER',
    'esbuildArgs: lambdaAliasArgs()',
  ];
  return expected.filter((setting) => !source.includes(setting));
}

// ---- The environment each function's config requires (dummy values; the stub stands behind them).

const QUEUE = (name: string) => `${STUB_ORIGIN_PLACEHOLDER}/000000000000/bench-${name}`;
const BENCH_KEY_ARN = 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000';

export function functionEnvironment(entry: Entry, operationId?: string): Record<string, string> {
  const service = {
    ...Object.fromEntries(TABLES.map((table) => [table.envVar, `bench-${table.id}`])),
    MEDIA_BUCKET: 'bench-media',
  };
  const delivery = {
    DELIVERY_QUEUE_URL: QUEUE('delivery'),
    EVENTS_QUEUE_URL: QUEUE('events'),
    IMPORT_QUEUE_URL: QUEUE('import'),
    WEBHOOK_QUEUE_URL: QUEUE('webhooks'),
    SCHEDULE_GROUP: 'bench-posts',
    DELIVERY_QUEUE_ARN: 'arn:aws:sqs:us-east-1:000000000000:bench-delivery',
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/bench-scheduler',
  };
  if (isOperation(entry)) return { ...service, OPERATION_ID: entry.slice('operation:'.length) };
  switch (entry) {
    case 'reference':
      return { ...service, OPERATION_ID: operationId ?? 'getOpenApi' };
    case 'mcp':
      // As infra/constructs/mcp-endpoint.ts: the operations' environment, and the key (a tool encrypts).
      return { ...service, SECRETS_KEY_ARN: BENCH_KEY_ARN };
    case 'dashboard':
      // As infra/constructs/dashboard-endpoint.ts: the key (webhook secrets, revoking tokens) and
      // the public base URL (https, so its cookies are Secure).
      return { ...service, SECRETS_KEY_ARN: BENCH_KEY_ARN, PUBLIC_BASE_URL: 'https://api.example.com' };
    case 'fallback':
      return {};
    case 'media-uploaded':
      return service;
    case 'webhook-dispatcher':
      return {
        ...service,
        ...delivery,
        SECRETS_KEY_ARN: BENCH_KEY_ARN,
      };
    case 'token-refresher':
      // As the stack's refresher: the service's tables and the key (tokens are re-encrypted); no queue.
      return { ...service, SECRETS_KEY_ARN: BENCH_KEY_ARN };
    default:
      return { ...service, ...delivery };
  }
}

/** What Lambda sets, plus credentials and config paths that keep the SDK off the machine's own. */
export function processEnvironment(
  scratch: string,
  functionEnv: Record<string, string>,
  eagerSourceMaps: boolean,
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    ...(eagerSourceMaps && { NODE_OPTIONS: '--enable-source-maps' }),
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SESSION_TOKEN: 'bench',
    AWS_CONFIG_FILE: join(scratch, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(scratch, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // Lambda's own markers, so Powertools' tracer loads and wraps the clients as it does there; the
    // trace is not sampled and X-Ray's daemon address is loopback, so nothing is sent.
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    _X_AMZN_TRACE_ID: 'Root=1-00000000-000000000000000000000000;Parent=0000000000000000;Sampled=0',
    AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
    ...functionEnv,
  };
}

// ---- First events.

export function apiEvent(
  method: string,
  path: string,
  routeKey: string,
  headers: Record<string, string> = {},
  body?: unknown,
): ApiEvent {
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'api.example.com', 'user-agent': 'bench', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'bench' },
      requestId: 'bench-request',
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
}

function sqsEvent(body: unknown): SQSEvent {
  return {
    Records: [
      {
        messageId: 'bench-message',
        receiptHandle: 'bench-receipt',
        body: JSON.stringify(body),
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(Date.now()),
          SenderId: 'bench',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:bench',
        awsRegion: 'us-east-1',
      },
    ],
  };
}

/** The stream record of a post created with status `publish`: a delivery message and post.queued. */
function queuedPostInsert(): DynamoDBStreamEvent {
  const tenantId = newId('tenant');
  const workspaceId = newId('workspace');
  const now = new Date().toISOString();
  const post: Post = {
    postId: newId('post'),
    tenantId,
    workspaceId,
    accountId: newId('account'),
    platform: 'twitter',
    postType: 'text',
    status: 'queued',
    content: 'hello from the bench',
    media: [],
    createdAt: now,
    updatedAt: now,
    attempts: 0,
    createdBy: newId('agent'),
    version: 1,
  };
  const item = { pk: `T#${tenantId}`, sk: `P#${post.postId}`, entity: 'post', ...post };
  return {
    Records: [
      {
        eventID: 'bench-1',
        eventName: 'INSERT',
        eventSource: 'aws:dynamodb',
        awsRegion: 'us-east-1',
        dynamodb: {
          // The Lambda event's AttributeValue type and the SDK's describe the same wire format.
          NewImage: marshall(item, { removeUndefinedValues: true }) as never,
          SequenceNumber: '1',
          SizeBytes: 300,
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      },
    ],
  };
}

function reconcileTick(): ScheduledEvent {
  return {
    version: '0',
    id: 'bench',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [],
    detail: {},
  };
}

function objectCreated(key: string): S3Event {
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: 'us-east-1',
        eventTime: new Date().toISOString(),
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'bench' },
        requestParameters: { sourceIPAddress: '192.0.2.1' },
        responseElements: { 'x-amz-request-id': 'bench', 'x-amz-id-2': 'bench' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'bench',
          bucket: {
            name: 'bench-media',
            ownerIdentity: { principalId: 'bench' },
            arn: 'arn:aws:s3:::bench-media',
          },
          object: { key, size: 48213, eTag: 'bench', sequencer: '1' },
        },
      },
    ],
  };
}

interface Scenario {
  entry: Entry;
  /** What the first invocation is. */
  label: string;
  operationId?: string;
  event: () => unknown;
}

/** An operation's first request: its method and path (dummy ids), with the given headers. */
function operationEvent(operationId: string, headers: Record<string, string> = {}): ApiEvent {
  const operation = operationById(operationId);
  const path = operation.path.replace(/\{[^}]+\}/g, 'x');
  return apiEvent(operation.method, path, `${operation.method} ${operation.path}`, headers);
}

/** A first request of an operation, run on its own bundle and on the reference bundle. */
interface OperationScenario {
  operationId: string;
  label: string;
  headers?: Record<string, string>;
}

const UNKNOWN_KEY = { authorization: `Bearer ${UNKNOWN_MCP_KEY}` };

/** The representative operations; the largest bundle's is added at run time. */
const OPERATION_SCENARIOS: OperationScenario[] = [
  { operationId: 'getOpenApi', label: 'GET /v1/openapi.json' },
  { operationId: 'listWorkspaces', label: 'no key → 401' },
  { operationId: 'listWorkspaces', label: 'unknown key → 401', headers: UNKNOWN_KEY },
  { operationId: 'createPost', label: 'unknown key → 401', headers: UNKNOWN_KEY },
  { operationId: 'createUploadUrl', label: 'unknown key → 401', headers: UNKNOWN_KEY },
];

const SCENARIOS: Scenario[] = [
  {
    entry: 'fallback',
    label: 'GET /v1/nowhere → 404',
    event: () => apiEvent('GET', '/v1/nowhere', '$default'),
  },
  { entry: 'outbox', label: 'INSERT of a queued post', event: queuedPostInsert },
  {
    entry: 'delivery-worker',
    label: 'message for an unknown post',
    event: () =>
      sqsEvent({ tenantId: newId('tenant'), workspaceId: newId('workspace'), postId: newId('post') }),
  },
  { entry: 'reconciler', label: 'one tick, nothing overdue', event: reconcileTick },
  { entry: 'token-refresher', label: 'daily run, no token expiring', event: () => ({}) },
  {
    entry: 'media-importer',
    label: 'message for unknown media',
    event: () =>
      sqsEvent({ tenantId: newId('tenant'), workspaceId: newId('workspace'), mediaId: newId('media') }),
  },
  {
    entry: 'webhook-fan-out',
    label: 'post.queued event, no webhook subscribed',
    event: () => {
      const postId = newId('post');
      return sqsEvent({
        id: newId('event'),
        type: 'post.queued',
        createdAt: new Date().toISOString(),
        tenantId: newId('tenant'),
        workspaceId: newId('workspace'),
        data: { postId, status: 'queued', platform: 'twitter', accountId: newId('account') },
      });
    },
  },
  {
    entry: 'webhook-dispatcher',
    label: 'message for an unknown delivery',
    event: () =>
      sqsEvent({
        tenantId: newId('tenant'),
        workspaceId: newId('workspace'),
        webhookId: newId('webhook'),
        deliveryId: newId('webhookDelivery'),
        attempts: 0,
      }),
  },
  {
    entry: 'media-uploaded',
    label: 'ObjectCreated for unknown media',
    event: () => objectCreated(mediaObjectKey(newId('tenant'), newId('workspace'), newId('media'))),
  },
];

// ---- Running.

export function runChild(
  childScript: string,
  job: ColdStartJob,
  env: NodeJS.ProcessEnv,
  execPath = process.execPath,
): Promise<ColdStartResult> {
  return new Promise((resolve, reject) => {
    // execArgv empty: not tsx's loader hooks, a plain Node as Lambda runs it.
    const child: ChildProcess = fork(childScript, [], {
      env: { ...env, BENCH_JOB: JSON.stringify(job) },
      execPath,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    let result: ColdStartResult | undefined;
    child.on('message', (message) => {
      result = message as ColdStartResult;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`${job.functionName} exited with ${code} and no result:\n${output}`));
    });
  });
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
};

function table(headers: string[], rows: string[][], rightAligned: Set<number>): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export const kib = (bytes: number) => (bytes / 1024).toFixed(1);
export const ms = (value: number) => value.toFixed(1);

interface Built {
  file: string;
  bytes: number;
  gzipBytes: number;
  mapBytes: number;
  buildMs: number;
}

async function buildEntry(entry: Entry, scratch: string): Promise<Built> {
  const outdir = join(scratch, entry.replace(':', '-'));
  mkdirSync(outdir);
  const started = performance.now();
  await build(cdkBuildOptions(entry, outdir));
  const buildMs = performance.now() - started;
  const file = join(outdir, 'index.mjs');
  const code = readFileSync(file);
  return {
    file,
    bytes: code.length,
    gzipBytes: gzipSync(code).length,
    mapBytes: statSync(`${file}.map`).size,
    buildMs,
  };
}

interface ColdStart {
  importMs: number;
  invokeMs: number;
  outcome: string;
  calls: string;
  /** Each follow-up's median time and last answer, in order. */
  followUps: { ms: number; outcome: string }[];
}

interface ColdStartOptions {
  operationId?: string;
  /** Events handed to the same instance after the first (a warm instance's next requests). */
  followUps?: () => unknown[];
  /** The stub's DynamoDB holds the bench's tenant, agent and key (mcp-requests.ts). */
  withKey?: boolean;
  /** Items the stub's DynamoDB holds instead (marshalled; the dashboard's session: dashboard-requests.ts). */
  dynamoItems?: unknown[];
  /** The Node that runs the child (bench/bench-node.ts); the bench's own by default. */
  node?: BenchNode;
  /** Added to the child's environment (BENCH_COMPILE_CACHE: bench/compile-cache.ts). */
  env?: Record<string, string>;
  /** @default RUNS (BENCH_RUNS) */
  runs?: number;
}

/** Seconds spent in cold-start children, by Node, so the run says what Node 22's rows cost it. */
const childSeconds = new Map<string, number>();

/** RUNS fresh processes, one at a time (no contention between them); medians. */
async function coldStart(
  childScript: string,
  scratch: string,
  entry: Entry,
  bundle: string,
  event: () => unknown,
  options: ColdStartOptions = {},
): Promise<ColdStart> {
  const env = {
    ...processEnvironment(
      scratch,
      functionEnvironment(entry, options.operationId),
      SOURCE_MAPS || entry === 'reference',
    ),
    ...(options.withKey && { [DYNAMO_ITEMS_VARIABLE]: JSON.stringify(DYNAMO_ITEMS) }),
    ...(options.dynamoItems && { [DYNAMO_ITEMS_VARIABLE]: JSON.stringify(options.dynamoItems) }),
    ...options.env,
  };
  const node = options.node ?? currentNode();
  const started = performance.now();
  const results: ColdStartResult[] = [];
  for (let run = 0; run < (options.runs ?? RUNS); run++) {
    const job = { bundle, functionName: entry, event: event(), followUps: options.followUps?.() ?? [] };
    results.push(await runChild(childScript, job, env, node.execPath));
  }
  childSeconds.set(node.label, (childSeconds.get(node.label) ?? 0) + (performance.now() - started) / 1000);
  const last = results[results.length - 1];
  const calls = Object.entries(last?.awsCalls ?? {})
    .map(([name, count]) => `${name}×${count}`)
    .join(', ');
  return {
    importMs: median(results.map((r) => r.importMs)),
    invokeMs: median(results.map((r) => r.invokeMs)),
    outcome: last?.outcome ?? '',
    calls: calls || 'none',
    followUps: (last?.followUps ?? []).map((step, i) => ({
      ms: median(results.map((r) => r.followUps?.[i]?.ms ?? Number.NaN)),
      outcome: step.outcome,
    })),
  };
}

const verdict = (held: boolean) => (held ? 'OK' : 'OVER');

/** The issue 32 targets of the operations: the median and the worst, size and import. */
const MEDIAN_TARGET_BYTES = 350 * 1024;
const WORST_TARGET_BYTES = 500 * 1024;
const MEDIAN_TARGET_IMPORT_MS = 50;
const WORST_TARGET_IMPORT_MS = 70;

function operationTargetLines(
  bundles: Map<string, Built>,
  importMs: Map<string, number>,
  importMs22: Map<string, number>,
): string[] {
  const worst = <T>(entries: Map<string, T>, value: (item: T) => number) =>
    [...entries].reduce(
      (found, [id, item]) => (value(item) > found.value ? { id, value: value(item) } : found),
      { id: '', value: Number.NEGATIVE_INFINITY },
    );
  const medianBytes = median([...bundles.values()].map((built) => built.bytes));
  const largest = worst(bundles, (built) => built.bytes);
  const medianImport = median([...importMs.values()]);
  const slowest = worst(importMs, (value) => value);
  const medianImport22 = median([...importMs22.values()]);
  const slowest22 = worst(importMs22, (value) => value);
  return [
    `\nEvery operation (${bundles.size}), own bundle, first request without a key (median of ${RUNS} runs each):`,
    `  bundle  median ${kib(medianBytes)} KiB (target <= ${kib(MEDIAN_TARGET_BYTES)}) ${verdict(medianBytes <= MEDIAN_TARGET_BYTES)}; ` +
      `largest ${largest.id} ${kib(largest.value)} KiB (none over ${kib(WORST_TARGET_BYTES)}) ${verdict(largest.value <= WORST_TARGET_BYTES)}`,
    `  import  median ${ms(medianImport)} ms (target <= ${MEDIAN_TARGET_IMPORT_MS}) ${verdict(medianImport <= MEDIAN_TARGET_IMPORT_MS)}; ` +
      `slowest ${slowest.id} ${ms(slowest.value)} ms (none over ${WORST_TARGET_IMPORT_MS}) ${verdict(slowest.value <= WORST_TARGET_IMPORT_MS)}`,
    `  import on Node 22  median ${ms(medianImport22)} ms ${verdict(medianImport22 <= MEDIAN_TARGET_IMPORT_MS)}; ` +
      `slowest ${slowest22.id} ${ms(slowest22.value)} ms ${verdict(slowest22.value <= WORST_TARGET_IMPORT_MS)}`,
  ];
}

/** A split function's size, whole and loaded at cold start, and what weighs most in the latter. */
function printSplitAsset(title: string, built: SplitBuilt, topInputs: [string, number][]): void {
  console.log(`\n${title}`);
  console.log(
    table(
      ['asset', 'files', 'KiB', 'gzip KiB', 'map KiB'],
      [
        [
          'whole (entry + every chunk)',
          String(built.files),
          kib(built.totalBytes),
          kib(built.totalGzipBytes),
          kib(built.mapBytes),
        ],
        [
          'loaded at cold start (entry + static imports)',
          String(built.startOutputs.size),
          kib(built.startBytes),
          kib(built.startGzipBytes),
          '',
        ],
      ],
      new Set([1, 2, 3, 4]),
    ),
  );
  console.log('Largest inputs loaded at cold start (KiB)');
  for (const [name, bytes] of topInputs) console.log(`  ${name.padEnd(48)} ${kib(bytes).padStart(7)}`);
}

// ---- The MCP function (issue 32): split as deployed, beside the REST operations its tools are.

/** Issue 32's targets: `tools/list` from a cold start; a first `tools/call` beside its operation's own bundle. */
const MCP_LIST_TARGET_IMPORT_MS = 60;
const MCP_CALL_TARGET_EXTRA_MS = 20;

const mcpEvent = (request: McpRequest) => apiEvent('POST', '/mcp', 'ANY /mcp', request.headers, request.body);

/** The REST request a tool call stands for: the same operation, path parameters `ws_x`, the same key. */
function restEvent(operationId: string, body?: Record<string, unknown>): ApiEvent {
  const operation = operationById(operationId);
  const path = operation.path.replace(/\{[^}]+\}/g, 'ws_x');
  const headers = {
    authorization: `Bearer ${API_KEY}`,
    ...(body !== undefined && { 'content-type': 'application/json' }),
  };
  return apiEvent(operation.method, path, `${operation.method} ${operation.path}`, headers, body);
}

interface McpScenario {
  label: string;
  first: () => McpRequest;
  followUps?: () => McpRequest[];
  /** A tool call: its operation, and the REST request that runs it on the operation's own bundle. */
  rest?: { operationId: string; event: () => ApiEvent };
}

const MCP_SCENARIOS: McpScenario[] = [
  { label: 'initialize, unknown key → 401', first: () => initialize(UNKNOWN_MCP_KEY) },
  { label: 'first request tools/list', first: toolsList },
  {
    label: 'first request tools/call listWorkspaces',
    first: () => toolsCall('listWorkspaces'),
    rest: { operationId: 'listWorkspaces', event: () => restEvent('listWorkspaces') },
  },
  {
    label: 'first request tools/call createPost (invalid body)',
    first: () => toolsCall('createPost', { workspaceId: 'ws_x', body: {} }),
    rest: { operationId: 'createPost', event: () => restEvent('createPost', {}) },
  },
  {
    label: 'connect: initialize; then initialized, tools/list, tools/call listWorkspaces ×2, listAccounts',
    first: () => initialize(API_KEY),
    followUps: () => [
      initialized(),
      toolsList(),
      toolsCall('listWorkspaces'),
      toolsCall('listWorkspaces'),
      toolsCall('listAccounts', { workspaceId: 'ws_x' }),
    ],
  },
];

/** Builds the MCP function (and the operations its tool calls are compared with), runs its scenarios, and prints. */
async function mcpSection(childScript: string, scratch: string, node22: BenchNode): Promise<McpBuilt> {
  const dir = join(scratch, 'mcp-section');
  mkdirSync(dir);
  const built: McpBuilt = await mcpBundle(dir);
  const restBundles = new Map<string, Built>();
  for (const scenario of MCP_SCENARIOS) {
    const id = scenario.rest?.operationId;
    if (id && !restBundles.has(id)) restBundles.set(id, await buildEntry(`operation:${id}`, dir));
  }

  const rows: string[][] = [];
  const callRows: string[][] = [];
  let listImportMs = Number.NaN;
  let listImportMs22 = Number.NaN;
  for (const scenario of MCP_SCENARIOS) {
    const mcpOptions: ColdStartOptions = {
      withKey: true,
      ...(scenario.followUps && { followUps: () => scenario.followUps?.().map(mcpEvent) ?? [] }),
    };
    const mcpEventOf = () => mcpEvent(scenario.first());
    const mcp = await coldStart(childScript, dir, 'mcp', built.file, mcpEventOf, mcpOptions);
    const mcp22 = await coldStart(childScript, dir, 'mcp', built.file, mcpEventOf, {
      ...mcpOptions,
      node: node22,
    });
    if (scenario.first === toolsList) {
      listImportMs = mcp.importMs;
      listImportMs22 = mcp22.importMs;
    }
    rows.push([
      scenario.label,
      ms(mcp.importMs),
      ms(mcp.invokeMs),
      ms(mcp22.importMs),
      ms(mcp22.invokeMs),
      mcp.outcome,
      mcp.followUps.map((step) => `${ms(step.ms)} ${step.outcome}`).join(' | ') || '-',
    ]);
    if (!scenario.rest) continue;
    const { operationId, event } = scenario.rest;
    const restBundle = restBundles.get(operationId)?.file ?? '';
    const rest = await coldStart(childScript, dir, `operation:${operationId}`, restBundle, event, {
      withKey: true,
    });
    const rest22 = await coldStart(childScript, dir, `operation:${operationId}`, restBundle, event, {
      withKey: true,
      node: node22,
    });
    const mcpTotal = mcp.importMs + mcp.invokeMs;
    const restTotal = rest.importMs + rest.invokeMs;
    const extra22 = mcp22.importMs + mcp22.invokeMs - (rest22.importMs + rest22.invokeMs);
    callRows.push([
      operationId,
      ms(mcp.importMs),
      ms(mcp.invokeMs),
      ms(mcpTotal),
      ms(rest.importMs),
      ms(rest.invokeMs),
      ms(restTotal),
      ms(mcpTotal - restTotal),
      rest.outcome,
      verdict(mcpTotal <= restTotal + MCP_CALL_TARGET_EXTRA_MS),
      ms(extra22),
      verdict(extra22 <= MCP_CALL_TARGET_EXTRA_MS),
    ]);
  }

  printSplitAsset(
    'The MCP function, as deployed: its generated entry (infra/mcp-entry.ts), split into chunks',
    built,
    mcpTopInputs(built, 10),
  );
  console.log(
    `\nMCP cold starts (the stub's DynamoDB holds a tenant, agent and key; median of ${RUNS}): ` +
      "import, then the first request, then the same instance's next ones",
  );
  console.log(
    table(
      ['first request', 'import ms', 'first ms', 'import 22', 'first 22', 'answer', 'then (ms answer)'],
      rows,
      new Set([1, 2, 3, 4]),
    ),
  );
  console.log(
    `tools/list from a cold start  import ${ms(listImportMs)} ms   (target <= ${MCP_LIST_TARGET_IMPORT_MS} ms)  ` +
      `${verdict(listImportMs <= MCP_LIST_TARGET_IMPORT_MS)};  on Node 22 ${ms(listImportMs22)} ms  ` +
      verdict(listImportMs22 <= MCP_LIST_TARGET_IMPORT_MS),
  );
  console.log(
    `\nA first tools/call beside the same request on the operation's own bundle, each in a fresh process; ` +
      `target: MCP import + first call <= REST import + first call + ${MCP_CALL_TARGET_EXTRA_MS} ms`,
  );
  console.log(
    table(
      [
        'tool',
        'MCP import',
        'MCP call',
        'MCP total',
        'REST import',
        'REST call',
        'REST total',
        'extra ms',
        'REST answer',
        'target',
        'extra 22',
        'target 22',
      ],
      callRows,
      new Set([1, 2, 3, 4, 5, 6, 7, 10]),
    ),
  );
  return built;
}

// ---- The dashboard function (issue 32): split as deployed, each group of pages a chunk.

/** Issue 32's target: the sign-in page from a cold start, import and first request. */
const DASHBOARD_SIGN_IN_TARGET_MS = 80;

const dashboardEvent = (path: string, cookies?: string[]): ApiEvent => ({
  ...apiEvent('GET', path, 'ANY /dashboard/{proxy+}', { accept: 'text/html' }),
  ...(cookies && { cookies }),
});

const DASHBOARD_SCENARIOS: { label: string; event: () => ApiEvent; signedIn?: boolean }[] = [
  { label: 'GET /dashboard/sign-in, no session → 200', event: () => dashboardEvent('/dashboard/sign-in') },
  {
    label: 'GET /dashboard/workspaces, no session → 303',
    event: () => dashboardEvent('/dashboard/workspaces'),
  },
  {
    label: 'GET /dashboard/workspaces, signed in → 200',
    event: () => dashboardEvent('/dashboard/workspaces', SESSION_COOKIES),
    signedIn: true,
  },
];

/** Builds the dashboard function, runs its scenarios on Node 20 and 22, and prints. */
async function dashboardSection(
  childScript: string,
  scratch: string,
  node22: BenchNode,
): Promise<DashboardBuilt> {
  const built = await dashboardBundle(scratch);
  const rows: string[][] = [];
  let signIn = { ms: Number.NaN, ms22: Number.NaN };
  for (const scenario of DASHBOARD_SCENARIOS) {
    const options: ColdStartOptions = scenario.signedIn ? { dynamoItems: DASHBOARD_ITEMS } : {};
    const run = await coldStart(childScript, scratch, 'dashboard', built.file, scenario.event, options);
    const run22 = await coldStart(childScript, scratch, 'dashboard', built.file, scenario.event, {
      ...options,
      node: node22,
    });
    const total = run.importMs + run.invokeMs;
    const total22 = run22.importMs + run22.invokeMs;
    if (scenario === DASHBOARD_SCENARIOS[0]) signIn = { ms: total, ms22: total22 };
    rows.push([
      scenario.label,
      ms(run.importMs),
      ms(run.invokeMs),
      ms(total),
      ms(run22.importMs),
      ms(run22.invokeMs),
      ms(total22),
      run.outcome,
      run.calls,
    ]);
  }
  printSplitAsset(
    'The dashboard function, as deployed: functions/dashboard.ts, split into chunks',
    built,
    dashboardTopInputs(built, 8),
  );
  console.log(`\nDashboard cold starts (median of ${RUNS}): import, then the first request`);
  console.log(
    table(
      [
        'first request',
        'import ms',
        'first ms',
        'total ms',
        'import 22',
        'first 22',
        'total 22',
        'answer',
        'AWS calls (stubbed)',
      ],
      rows,
      new Set([1, 2, 3, 4, 5, 6]),
    ),
  );
  console.log(
    `sign-in page from a cold start  import + first request ${ms(signIn.ms)} ms   ` +
      `(target <= ${DASHBOARD_SIGN_IN_TARGET_MS} ms)  ${verdict(signIn.ms <= DASHBOARD_SIGN_IN_TARGET_MS)};  ` +
      `on Node 22 ${ms(signIn.ms22)} ms  ${verdict(signIn.ms22 <= DASHBOARD_SIGN_IN_TARGET_MS)}`,
  );
  return built;
}

/** The cold-start child, as plain ESM for a plain `node` (no tsx in the measured process). */
async function buildChild(scratch: string): Promise<string> {
  const childScript = join(scratch, 'cold-start-child.mjs');
  await build({
    entryPoints: [join(repoRoot, 'bench/cold-start-child.ts')],
    bundle: true,
    absWorkingDir: repoRoot,
    outfile: childScript,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return childScript;
}

/** `BENCH_ONLY=mcp`: the MCP function's rows only (and the operations its tool calls are compared with). */
const ONLY_MCP = process.env.BENCH_ONLY === 'mcp';
/** `BENCH_ONLY=dashboard`: the dashboard function's rows only. */
const ONLY_DASHBOARD = process.env.BENCH_ONLY === 'dashboard';
/** `BENCH_ONLY=compile-cache`: Node 22's compile cache only (compileCacheSection). */
const ONLY_COMPILE_CACHE = process.env.BENCH_ONLY === 'compile-cache';

/**
 * Node 22's compile cache shipped in the asset (bench/compile-cache.ts), for an operation, the MCP
 * function's cold path (tools/list) and the delivery worker; each `index.mjs` given is copied with
 * its folder (chunks included).
 */
async function compileCacheSection(
  childScript: string,
  scratch: string,
  node: BenchNode,
  bundles: { listWorkspaces: string; mcp: string; deliveryWorker: string },
): Promise<void> {
  const run =
    (entry: Entry, event: () => unknown, withKey = false) =>
    (bundle: string, env: Record<string, string>, runs?: number) =>
      coldStart(childScript, scratch, entry, bundle, event, { node, env, withKey, ...(runs && { runs }) });
  const deliveryEvent =
    SCENARIOS.find((scenario) => scenario.entry === 'delivery-worker')?.event ?? (() => ({}));
  const report = await measureCompileCache(
    [
      {
        label: 'listWorkspaces, unknown key',
        assetDir: dirname(bundles.listWorkspaces),
        coldStart: run('operation:listWorkspaces', () => operationEvent('listWorkspaces', UNKNOWN_KEY)),
      },
      {
        label: 'mcp, tools/list',
        assetDir: dirname(bundles.mcp),
        coldStart: run('mcp', () => mcpEvent(toolsList()), true),
      },
      {
        label: 'delivery-worker, unknown post',
        assetDir: dirname(bundles.deliveryWorker),
        coldStart: run('delivery-worker', deliveryEvent),
      },
    ],
    scratch,
    RUNS,
  );
  console.log(formatCompileCache(report, node.version, RUNS));
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'smcp-bundles-'));
  try {
    // Every cold start runs on the bench's Node (CI's 20) and on Node 22, Lambda's (bench/bench-node.ts).
    const node22Runtime = node22();
    if (ONLY_MCP) {
      await mcpSection(await buildChild(scratch), scratch, node22Runtime);
      return;
    }
    if (ONLY_DASHBOARD) {
      await dashboardSection(await buildChild(scratch), scratch, node22Runtime);
      return;
    }
    if (ONLY_COMPILE_CACHE) {
      const mcp = await mcpBundle(scratch);
      await compileCacheSection(await buildChild(scratch), scratch, node22Runtime, {
        listWorkspaces: (await buildEntry('operation:listWorkspaces', scratch)).file,
        mcp: mcp.file,
        deliveryWorker: (await buildEntry('delivery-worker', scratch)).file,
      });
      return;
    }
    const drift = constructDrift();
    if (drift.length > 0) {
      console.warn(
        `warning: infra/constructs/service-function.ts no longer has ${drift.join(', ')}; ` +
          'the bundles below may not match what CDK builds. Update cdkBuildOptions in bench/bundles.ts.',
      );
    }

    // 1. Bundles, exactly as CDK builds them: the reference, each operation's, the other functions'.
    const reference = await buildEntry('reference', scratch);
    const operationBundles = new Map<string, Built>();
    for (const operation of operations) {
      operationBundles.set(operation.id, await buildEntry(`operation:${operation.id}`, scratch));
    }
    const functionBundles = new Map<Entry, Built>();
    for (const entry of FUNCTION_ENTRIES) functionBundles.set(entry, await buildEntry(entry, scratch));

    const bySize = [...operationBundles].sort(([, a], [, b]) => b.bytes - a.bytes);
    const [largestId = '', largest] = bySize[0] ?? [];
    const sizeCells = (built: Built) => [
      built.bytes.toLocaleString('en-US'),
      kib(built.bytes),
      kib(built.gzipBytes),
      kib(built.mapBytes),
    ];
    const operationRows = bySize.map(([id, built]) => [
      id,
      ...sizeCells(built),
      `${((100 * built.bytes) / reference.bytes).toFixed(0)}%`,
      verdict(built.bytes <= TARGET_BYTES),
    ]);

    const childScript = await buildChild(scratch);

    // 2. Cold starts: each representative operation on its own bundle and on the reference.
    const scenarios = [
      ...OPERATION_SCENARIOS,
      ...(OPERATION_SCENARIOS.some((s) => s.operationId === largestId)
        ? []
        : [{ operationId: largestId, label: 'no key (largest bundle)' }]),
    ];
    const operationColdRows: string[][] = [];
    let slowestImportMs = 0;
    for (const scenario of scenarios) {
      const event = () => operationEvent(scenario.operationId, scenario.headers);
      const own = await coldStart(
        childScript,
        scratch,
        `operation:${scenario.operationId}`,
        operationBundles.get(scenario.operationId)?.file ?? '',
        event,
      );
      const ref = await coldStart(childScript, scratch, 'reference', reference.file, event, {
        operationId: scenario.operationId,
      });
      const own22 = await coldStart(
        childScript,
        scratch,
        `operation:${scenario.operationId}`,
        operationBundles.get(scenario.operationId)?.file ?? '',
        event,
        { node: node22Runtime },
      );
      slowestImportMs = Math.max(slowestImportMs, own.importMs);
      operationColdRows.push([
        scenario.operationId,
        scenario.label,
        ms(own.importMs),
        ms(ref.importMs),
        ms(own.invokeMs),
        ms(ref.invokeMs),
        ms(own22.importMs),
        ms(own22.invokeMs),
        own.outcome === ref.outcome ? own.outcome : `${own.outcome} (reference ${ref.outcome})`,
        verdict(own.importMs < TARGET_IMPORT_MS),
      ]);
    }

    // 2b. Every operation's import on its own bundle (first request without a key), for the median.
    const everyImportMs = new Map<string, number>();
    const everyImportMs22 = new Map<string, number>();
    for (const [id, built] of operationBundles) {
      const event = () => operationEvent(id);
      const file = built.file;
      everyImportMs.set(id, (await coldStart(childScript, scratch, `operation:${id}`, file, event)).importMs);
      const on22 = await coldStart(childScript, scratch, `operation:${id}`, file, event, {
        node: node22Runtime,
      });
      everyImportMs22.set(id, on22.importMs);
    }

    // 3. Cold starts of the other functions.
    const coldRows: string[][] = [];
    for (const scenario of SCENARIOS) {
      const bundle = functionBundles.get(scenario.entry)?.file ?? '';
      const result = await coldStart(childScript, scratch, scenario.entry, bundle, scenario.event);
      const result22 = await coldStart(childScript, scratch, scenario.entry, bundle, scenario.event, {
        node: node22Runtime,
      });
      coldRows.push([
        scenario.entry,
        scenario.label,
        ms(result.importMs),
        ms(result.invokeMs),
        ms(result.importMs + result.invokeMs),
        ms(result22.importMs),
        ms(result22.invokeMs),
        result.outcome,
        result.calls,
      ]);
    }

    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    console.log('\nLambda bundles (esbuild as infra/constructs/service-function.ts: ESM, minify, node22)');
    console.log(
      `  esbuild ${esbuildVersion}; machine: ${process.platform} ${process.arch}, ${cpus().length} × ${cpu}`,
    );
    console.log(
      `\nEach operation's own bundle (${operationBundles.size}, largest first) beside the reference, the one ` +
        'bundle every operation ran before (bench/all-operations-entry.ts); target <= 350 KiB',
    );
    console.log(
      table(
        ['operation', 'bytes', 'KiB', 'gzip KiB', 'map KiB', 'of ref', 'target'],
        [['(reference: every operation)', ...sizeCells(reference), '100%', ''], ...operationRows],
        new Set([1, 2, 3, 4, 5]),
      ),
    );
    console.log(
      `largest operation bundle  ${largestId} ${kib(largest?.bytes ?? 0)} KiB   ` +
        `(reference ${kib(reference.bytes)} KiB; target <= ${kib(TARGET_BYTES)} KiB)  ` +
        verdict((largest?.bytes ?? 0) <= TARGET_BYTES),
    );
    console.log('\nThe other functions (no size target)');
    console.log(
      table(
        ['function', 'bytes', 'KiB', 'gzip KiB', 'map KiB'],
        [...functionBundles].map(([entry, built]) => [entry, ...sizeCells(built)]),
        new Set([1, 2, 3, 4]),
      ),
    );
    console.log(
      `\nCold-start proxy: a fresh \`node\` per run, ${process.version} (the columns without a number) and ${node22Runtime.version} ` +
        `(the columns marked 22: Lambda's nodejs22.x), ${SOURCE_MAPS ? 'NODE_OPTIONS=--enable-source-maps (BENCH_SOURCE_MAPS=eager)' : 'source maps read on the first error only, as deployed'}, ` +
        `AWS APIs stubbed on loopback; median of ${RUNS} runs`,
    );
    console.log(
      `Operations: own bundle beside the reference bundle, same first request; target import < ${TARGET_IMPORT_MS} ms`,
    );
    console.log(
      table(
        [
          'operation',
          'first invocation',
          'import ms',
          'ref import ms',
          'first call ms',
          'ref first call ms',
          'import 22',
          'first call 22',
          'answer',
          'target',
        ],
        operationColdRows,
        new Set([2, 3, 4, 5, 6, 7]),
      ),
    );
    console.log(
      `slowest operation import  ${ms(slowestImportMs)} ms   (target < ${TARGET_IMPORT_MS} ms)  ${verdict(slowestImportMs < TARGET_IMPORT_MS)}`,
    );
    console.log(operationTargetLines(operationBundles, everyImportMs, everyImportMs22).join('\n'));
    console.log('\nThe other functions');
    console.log(
      table(
        [
          'function',
          'first invocation',
          'import ms',
          'first call ms',
          'total ms',
          'import 22',
          'first call 22',
          'answer',
          'AWS calls (stubbed)',
        ],
        coldRows,
        new Set([2, 3, 4, 5, 6]),
      ),
    );
    const mcpBuilt = await mcpSection(childScript, scratch, node22Runtime);
    await dashboardSection(childScript, scratch, node22Runtime);
    await compileCacheSection(childScript, scratch, node22Runtime, {
      listWorkspaces: operationBundles.get('listWorkspaces')?.file ?? '',
      mcp: mcpBuilt.file,
      deliveryWorker: functionBundles.get('delivery-worker')?.file ?? '',
    });
    await zodMiniSection();
    console.log(
      '\nA proxy, not Lambda: no runtime bootstrap or code download, and a full core instead of the ' +
        "sandbox's share, which scales with memory. Compare rows with one another.",
    );
    console.log(
      `Time in cold-start children: ${[...childSeconds].map(([label, seconds]) => `${label} ${seconds.toFixed(0)} s`).join(', ')}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// Run, unless imported for its helpers.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) runBenchmark('bench/bundles.ts', main);
