/**
 * `tsx bench/cost.ts`: every AWS call one published post costs, counted on the local host, for a
 * text post and a post with one uploaded image, each without and with one webhook subscribed to
 * every post event; and what a post scheduled more than 15 minutes ahead adds. docs/cost.md turns
 * the counts into dollars.
 *
 * Posts go one at a time, each waited for until the host is quiet again (published, its events
 * fanned out, its webhook deliveries made), so each handler run is one Lambda invocation with the
 * records of one post: the most invocations a post can cost (under load Lambda batches more).
 * Counted where the deployed service would call AWS:
 * - API Gateway: the client's requests (the request log's lines);
 * - Lambda: each handler run (the API's request line; the local host's probe for the outbox,
 *   worker, fan-out, dispatcher and upload notification), with its measured duration;
 * - DynamoDB: the service's calls with their consumed capacity (the call counter, ReturnConsumedCapacity
 *   on DynamoDB Local); the sandbox network's own ledger is not the service's and is left out;
 * - SQS sends, Scheduler schedules, KMS calls: the local host's probe at the ports; SQS receives and
 *   deletes as an SQS event source mapping makes them (see RECEIVE_MODEL below);
 * - S3: requests reaching s3rver (the client's PUT included).
 * Not a test: nothing is asserted; the figures are measured each run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalHost } from '../infra/local/host.js';
import type { LocalProbe, ProbedService } from '../infra/local/local-probe.js';
import { makeCallCounter } from '../shared/adapters/dynamodb/call-counter.js';
import { makeDocumentClient, makeDynamoClient } from '../shared/adapters/dynamodb/client.js';
import { keys } from '../shared/adapters/dynamodb/keys.js';
import type { LogFields, Logger } from '../shared/ports/logger.js';
import { noMetrics } from '../shared/ports/metrics.js';
import { makeAdmin } from '../shared/services/admin.js';
import { startWebhookReceiver } from '../test/e2e/support/webhook-receiver.js';
import { runBenchmark } from './support.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const POSTS_PER_SCENARIO = Number(process.env.BENCH_COST_POSTS ?? 8);
/** Quiet for this long (no DynamoDB call, no handler run) = the post's work is done. */
const QUIET_MS = 1500;

/**
 * Each function's configured memory (MB), as infra/constructs sets it: the operation functions
 * take ServiceFunction's default (service-function.ts), the workers theirs (workers.ts).
 */
const MEMORY_MB: Record<string, number> = {
  'api (operation)': 1024,
  outbox: 512,
  deliveryWorker: 2048,
  webhookFanOut: 512,
  webhookDispatcher: 512,
  mediaUploaded: 512,
  mediaImporter: 2048,
};

/** The functions an SQS event source mapping feeds: each invocation is one receive and one delete. */
const SQS_CONSUMERS: Record<string, string> = {
  deliveryWorker: 'delivery',
  webhookFanOut: 'events',
  webhookDispatcher: 'webhook-delivery',
  mediaImporter: 'media-import',
};

/**
 * On-demand list prices, us-east-1, in dollars per request (or per GB-s), beyond the free tiers:
 * docs/cost.md says where each comes from and its date.
 */
const PRICE = {
  apiGatewayHttpRequest: 1.0 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaArmGbSecond: 0.0000133334,
  dynamodbWriteUnit: 0.625 / 1e6,
  dynamodbReadUnit: 0.125 / 1e6,
  sqsRequest: 0.4 / 1e6,
  /** Scheduler bills the invocations (a schedule firing); creating and deleting schedules is free. */
  schedulerInvocation: 1.0 / 1e6,
  s3Put: 0.005 / 1000,
  s3Get: 0.0004 / 1000,
  kmsRequest: 0.03 / 10_000,
};

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(48_000, 7)]);

interface Invocation {
  fn: string;
  records: number;
  ms: number;
}

/** Everything counted for one post. */
interface Tally {
  apiRequests: Map<string, number>;
  invocations: Invocation[];
  calls: Map<string, number>;
}

function newTally(): Tally {
  return { apiRequests: new Map(), invocations: [], calls: new Map() };
}

function bump(map: Map<string, number>, key: string, by = 1) {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** The request lines' durations and operations; every other line formatted and dropped. */
function recordingLogger(onRequest: (operation: string, ms: number) => void, base: LogFields = {}): Logger {
  const line = (fields: LogFields | undefined) => JSON.stringify({ ...base, ...fields });
  return {
    debug: () => undefined,
    info: (message, fields) => {
      line(fields);
      const all = { ...base, ...fields };
      if (message === 'request' && typeof all.durationMs === 'number')
        onRequest(String(all.operation), all.durationMs);
    },
    warn: (_message, fields) => line(fields),
    error: (_message, fields) => line(fields),
    with: (fields) => recordingLogger(onRequest, { ...base, ...fields }),
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-bench-cost-'));
  let tally = newTally();
  let lastActivity = Date.now();
  const probe: LocalProbe = {
    call(service: ProbedService, action: string, resource?: string) {
      lastActivity = Date.now();
      bump(tally.calls, `${service} ${action}${resource ? ` ${resource}` : ''}`);
    },
    invocation(fn, records, ms) {
      lastActivity = Date.now();
      tally.invocations.push({ fn, records, ms });
    },
  };
  const dynamodb = makeCallCounter({ consumedCapacity: true });
  const host = await startLocalHost({
    dataDir,
    port: 0,
    // The sandbox's own per-network latencies: the worker's duration includes a network call.
    delivery: { reconcileIntervalMs: 3_600_000, tokenRefreshIntervalMs: false },
    dynamodbCalls: dynamodb,
    probe,
    observability: {
      logger: recordingLogger((operation, ms) => {
        lastActivity = Date.now();
        bump(tally.apiRequests, operation);
        tally.invocations.push({ fn: 'api (operation)', records: 1, ms });
      }),
      metrics: noMetrics,
    },
  });
  const receiver = await startWebhookReceiver();
  // The bench's own reads (is it published yet?) go through a client nobody counts.
  const reader = makeDocumentClient(
    makeDynamoClient({ region: host.config.region, endpoint: host.config.dynamodbEndpoint }),
  );
  try {
    const admin = makeAdmin({ tenancy: host.deps.tenancy, clock: host.deps.clock });
    const plain = await admin.bootstrap({ name: 'Cost', planTier: 'enterprise' });
    const hooked = await admin.bootstrap({ name: 'Cost with webhook', planTier: 'enterprise' });
    const api = (tenant: typeof plain) => ({
      base: `${host.baseUrl}/v1/workspaces/${tenant.workspaceId}`,
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
    });
    {
      const { base, headers } = api(hooked);
      const response = await fetch(`${base}/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          url: receiver.url('/all'),
          events: ['post.queued', 'post.scheduled', 'post.published', 'post.failed'],
        }),
      });
      if (response.status !== 201) throw new Error(`webhook answered ${response.status}`);
    }

    const itemOf = async (key: { pk: string; sk: string }) =>
      (await reader.send(new GetCommand({ TableName: host.config.tables.main, Key: key }))).Item;
    const waitFor = async (what: string, done: () => Promise<boolean>) => {
      const deadline = Date.now() + 60_000;
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`${what} did not happen within a minute`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const quiet = async () => {
      let calls = dynamodb.snapshot().totals.calls;
      lastActivity = Date.now();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = dynamodb.snapshot().totals.calls;
        if (now !== calls) {
          calls = now;
          lastActivity = Date.now();
        }
        if (Date.now() - lastActivity >= QUIET_MS) return;
      }
    };

    const uploadImage = async (tenant: typeof plain) => {
      const { base, headers } = api(tenant);
      const issued = await fetch(`${base}/media/upload-url`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ filename: 'cat.png', mimeType: 'image/png', sizeBytes: PNG.length }),
      });
      if (issued.status !== 201) throw new Error(`upload-url answered ${issued.status}`);
      const { mediaId, uploadUrl } = (await issued.json()) as { mediaId: string; uploadUrl: string };
      const put = await fetch(uploadUrl, {
        method: 'PUT',
        headers: { 'Content-Type': 'image/png' },
        body: PNG,
      });
      if (put.status !== 200) throw new Error(`upload PUT answered ${put.status}`);
      await waitFor('the upload confirmed', async () => {
        const item = await itemOf(keys.media(tenant.tenantId, tenant.workspaceId, mediaId));
        return item?.status === 'uploaded';
      });
      return mediaId;
    };

    const publishOne = async (
      tenant: typeof plain,
      options: { image: boolean; scheduledMinutes?: number },
      i: number,
    ) => {
      const { base, headers } = api(tenant);
      const media = options.image ? [{ id: await uploadImage(tenant) }] : [];
      const scheduled = options.scheduledMinutes !== undefined;
      const response = await fetch(`${base}/posts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          platform: 'twitter',
          accountId: tenant.accounts.twitter,
          status: scheduled ? 'scheduled' : 'publish',
          postType: options.image ? 'image' : 'text',
          content: `Cost post ${i}`,
          ...(options.image && { media }),
          ...(scheduled && {
            scheduledAt: new Date(Date.now() + (options.scheduledMinutes ?? 0) * 60_000).toISOString(),
          }),
        }),
      });
      if (response.status !== 201)
        throw new Error(`create answered ${response.status}: ${await response.text()}`);
      const { id } = (await response.json()) as { id: string };
      await waitFor('the post settled', async () => {
        const item = await itemOf(keys.post(tenant.tenantId, tenant.workspaceId, id));
        if (item?.status === 'failed') throw new Error(`post ${id} failed: ${JSON.stringify(item.error)}`);
        return item?.status === (scheduled ? 'scheduled' : 'published');
      });
      await quiet();
    };

    const scenarios = [
      { label: 'text post', tenant: plain, image: false },
      { label: 'text post, 1 webhook', tenant: hooked, image: false },
      { label: 'image post (uploaded)', tenant: plain, image: true },
      { label: 'image post, 1 webhook', tenant: hooked, image: true },
      { label: 'scheduled > 15 min ahead (until due)', tenant: plain, image: false, scheduledMinutes: 20 },
    ];
    // Warm-up: connections, JIT, the auth caches, the webhook's first delivery.
    for (const scenario of scenarios.slice(0, 4)) await publishOne(scenario.tenant, scenario, -1);

    const results: { label: string; perPost: Tally; dynamo: ReturnType<typeof dynamodb.snapshot> }[] = [];
    for (const scenario of scenarios) {
      await quiet();
      tally = newTally();
      dynamodb.reset();
      for (let i = 0; i < POSTS_PER_SCENARIO; i++) await publishOne(scenario.tenant, scenario, i);
      results.push({ label: scenario.label, perPost: tally, dynamo: dynamodb.snapshot() });
    }

    const n = POSTS_PER_SCENARIO;
    const per = (value: number) => (value / n).toFixed(2).replace(/\.00$/, '');
    console.log('\nAWS calls per published post (local host, one post at a time, sandbox network)');
    console.log(
      `  ${n} posts per scenario; per-post means. Lambda GB-s = Σ ceil(measured ms) × configured memory.`,
    );
    const summary: string[] = [];
    for (const { label, perPost, dynamo } of results) {
      console.log(`\n  ${label}`);
      const dollars = new Map<string, number>();
      const apiTotal = [...perPost.apiRequests.values()].reduce((a, b) => a + b, 0);
      console.log(
        `    API Gateway requests      ${per(apiTotal)}  (${[...perPost.apiRequests].map(([op, c]) => `${op} ${per(c)}`).join(', ')})`,
      );
      const byFn = new Map<string, Invocation[]>();
      for (const invocation of perPost.invocations)
        byFn.set(invocation.fn, [...(byFn.get(invocation.fn) ?? []), invocation]);
      let gbSeconds = 0;
      let invocations = 0;
      for (const [fn, runs] of byFn) {
        const memory = MEMORY_MB[fn] ?? 512;
        const billedMs = runs.reduce((sum, run) => sum + Math.ceil(run.ms), 0);
        const gbs = (billedMs / 1000) * (memory / 1024);
        gbSeconds += gbs;
        invocations += runs.length;
        const mean = billedMs / runs.length;
        console.log(
          `    Lambda ${fn.padEnd(18)} ${per(runs.length)} invocations, mean ${mean.toFixed(0)} ms at ${memory} MB = ${(gbs / n).toFixed(4)} GB-s`,
        );
      }
      console.log(
        `    Lambda total              ${per(invocations)} invocations, ${(gbSeconds / n).toFixed(4)} GB-s`,
      );
      dollars.set('API Gateway', apiTotal * PRICE.apiGatewayHttpRequest);
      dollars.set('Lambda', invocations * PRICE.lambdaRequest + gbSeconds * PRICE.lambdaArmGbSecond);
      const { totals } = dynamo;
      console.log(
        `    DynamoDB                  ${per(totals.reads)} reads (${per(totals.readUnits)} RRU), ${per(totals.itemWrites)} item writes in ${per(totals.writes)} calls (${per(totals.writeUnits)} WRU)`,
      );
      const rows = dynamo.byCommand.map(
        (row) =>
          `${row.command} ${row.table.replace(/^local-/, '')} ${per(row.calls)}${row.kind === 'write' ? ` (${per(row.writeUnits)} WRU)` : ` (${per(row.readUnits)} RRU)`}`,
      );
      console.log(`      ${rows.join('; ')}`);
      dollars.set(
        'DynamoDB',
        totals.writeUnits * PRICE.dynamodbWriteUnit + totals.readUnits * PRICE.dynamodbReadUnit,
      );
      // As an event source mapping consumes: one ReceiveMessage per batch and one DeleteMessageBatch
      // per batch it took (here a batch per message: posts one at a time).
      for (const [fn, queue] of Object.entries(SQS_CONSUMERS)) {
        const batches = byFn.get(fn)?.length ?? 0;
        if (batches > 0) {
          bump(perPost.calls, `sqs ReceiveMessage ${queue}`, batches);
          bump(perPost.calls, `sqs DeleteMessageBatch ${queue}`, batches);
        }
      }
      for (const service of ['sqs', 'scheduler', 's3', 'kms'] as const) {
        const entries = [...perPost.calls].filter(([key]) => key.startsWith(`${service} `));
        const total = entries.reduce((sum, [, count]) => sum + count, 0);
        const priceOf = (key: string) => {
          if (service === 'sqs') return PRICE.sqsRequest;
          if (service === 'kms') return PRICE.kmsRequest;
          if (service === 's3') return /(PUT|POST)$/.test(key) ? PRICE.s3Put : PRICE.s3Get;
          return 0;
        };
        dollars.set(
          service.toUpperCase(),
          entries.reduce((sum, [key, count]) => sum + count * priceOf(key), 0),
        );
        console.log(
          `    ${service.toUpperCase().padEnd(25)} ${per(total)}${entries.length > 0 ? `  (${entries.map(([key, c]) => `${key.slice(service.length + 1)} ${per(c)}`).join(', ')})` : ''}`,
        );
      }
      // A schedule created here fires once when due: one billed invocation, counted with its creation.
      const fired = perPost.calls.get('scheduler CreateSchedule') ?? 0;
      dollars.set('SCHEDULER', fired * PRICE.schedulerInvocation);
      const total = [...dollars.values()].reduce((a, b) => a + b, 0);
      const perMillion = (value: number) => `$${((value / n) * 1e6).toFixed(2)}`;
      console.log(
        `    $ per million posts       ${perMillion(total)}  (${[...dollars].map(([service, value]) => `${service} ${perMillion(value)}`).join(', ')})`,
      );
      summary.push(`${label.padEnd(40)} ${perMillion(total)}`);
    }
    console.log('\n  Dollars per million published posts (on-demand list prices, us-east-1; docs/cost.md)');
    for (const line of summary) console.log(`    ${line}`);
  } finally {
    reader.destroy();
    await host.stop();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark('bench/cost.ts', main);
