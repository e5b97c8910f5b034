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
 *   deletes as an SQS event source mapping makes them (cost-pricing.ts, withEventSourceRequests);
 * - S3: requests reaching s3rver (the client's PUT included).
 * Then what collecting a post's metrics over its whole schedule costs, counted the same way
 * (bench/metrics-cost.ts), beside the publishing cases; prices in bench/cost-pricing.ts.
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
import type { Invocation } from './cost-pricing.js';
import { printCase } from './cost-report.js';
import { METRICS_TABLE_PREFIX, measureCollection, printNetworkReads } from './metrics-cost.js';
import { runBenchmark } from './support.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const POSTS_PER_SCENARIO = Number(process.env.BENCH_COST_POSTS ?? 8);
/** Quiet for this long (no DynamoDB call, no handler run) = the post's work is done. */
const QUIET_MS = 1500;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(48_000, 7)]);

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
    console.log('\nAWS calls per published post (local host, one post at a time, sandbox network)');
    console.log(
      `  ${n} posts per scenario; per-post means. Lambda GB-s = Σ ceil(measured ms) × configured memory.`,
    );
    const summary: string[] = [];
    for (const { label, perPost, dynamo } of results) {
      const { total } = printCase(label, {
        posts: n,
        apiRequests: perPost.apiRequests,
        invocations: perPost.invocations,
        calls: perPost.calls,
        dynamo,
        // A schedule created here fires once when due: one billed invocation, counted with its creation.
        schedulerInvocations: perPost.calls.get('scheduler CreateSchedule') ?? 0,
      });
      summary.push(`${label.padEnd(40)} $${total.toFixed(2)}`);
    }

    // The metrics collection, on a host of its own whose clock the bench moves (same DynamoDB Local).
    console.log(
      `\nAWS calls per post for collecting its metrics over the whole schedule (1 h … 30 d), on a clock the bench moves`,
    );
    const collectionStarted = Date.now();
    const collections = await measureCollection({
      ...(host.dynamodb && { dynamodbEndpoint: host.dynamodb.endpoint }),
    });
    console.log(`  (measured in ${((Date.now() - collectionStarted) / 1000).toFixed(0)} s)`);
    const collected: { short: string; total: number }[] = [];
    for (const { label, short, counts } of collections) {
      const { total } = printCase(
        `${label}: ${counts.posts} posts, ${counts.readingsPerPost} readings each`,
        counts,
        METRICS_TABLE_PREFIX,
      );
      collected.push({ short, total });
    }
    console.log(
      "\n  The first slot's schedule is created when a post is published: the publishing cases price its firing too ($1.00).",
    );
    console.log(
      "  A real network's account also decrypts its token at each read (KMS, $3.00 a million reads): a sandbox account has none.",
    );
    printNetworkReads();

    console.log('\n  Dollars per million posts (on-demand list prices, us-east-1; docs/cost.md)');
    for (const line of summary) console.log(`    ${line}`);
    for (const { short, total } of collected)
      console.log(`    ${`metrics, ${short}`.padEnd(40)} $${total.toFixed(2)}`);
  } finally {
    reader.destroy();
    await host.stop();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark('bench/cost.ts', main);
