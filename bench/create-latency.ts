/**
 * `tsx bench/create-latency.ts`: create latency with one client and with 16, in the same run, and
 * where the time goes under load. Phases, on one local host (API, outbox and workers in this one
 * Node process, DynamoDB Local one Java process):
 * 1. one client, posts to publish (the pipeline publishes each as it comes): the reference;
 * 2. 16 clients, posts to publish (the pipeline works through its backlog meanwhile): the target;
 * 3. 16 clients, drafts, once the pipeline is idle (drafts give it nothing to do): our request
 *    path under load without the workers' share of the process;
 * 4. DynamoDB Local alone, the same three calls a create makes (rate-limit UpdateItem, BatchGetItem
 *    of workspace and account, conditional PutItem), from a client of its own, with 1 and 16
 *    callers: the storage's own latency at that concurrency, a floor no code change can go under.
 * For each phase: the HTTP round trip p50/p99, the handler's own time (the request line's
 * durationMs), this process's CPU per create and the event loop's delay p99.
 * Not a test: nothing is asserted; the figures are measured each run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BatchGetCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalHost } from '../infra/local/host.js';
import { makeDocumentClient, makeDynamoClient } from '../shared/adapters/dynamodb/client.js';
import { keys } from '../shared/adapters/dynamodb/keys.js';
import type { LogFields, Logger } from '../shared/ports/logger.js';
import { noMetrics } from '../shared/ports/metrics.js';
import { makeAdmin } from '../shared/services/admin.js';
import { cpuMsOf, javaProcessOf } from './process-cpu.js';
import { inParallel, percentile, runBenchmark } from './support.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const SINGLE_CREATES = Number(process.env.BENCH_SINGLE ?? 150);
const LOADED_CREATES = Number(process.env.BENCH_LOADED ?? 320);
const CLIENTS = 16;
const STORAGE_SEQUENCES = Number(process.env.BENCH_STORAGE ?? 240);
const SANDBOX_LATENCY = { min: 20, max: 60 };
const TARGET_FACTOR = 3;
const IDLE_MS = 5000;

/**
 * The service's log lines, formatted as one JSON line each (the work Powertools does per line) and
 * dropped, so the bench's table stays readable; the `request` lines' durationMs are kept.
 */
function measuringLogger(onRequest: (durationMs: number) => void, base: LogFields = {}): Logger {
  const line = (fields: LogFields | undefined) =>
    JSON.stringify({ ...base, ...fields, timestamp: new Date() });
  return {
    debug: () => undefined,
    info: (message, fields) => {
      line(fields);
      if (message === 'request' && typeof fields?.durationMs === 'number') onRequest(fields.durationMs);
    },
    warn: (_message, fields) => line(fields),
    error: (_message, fields) => line(fields),
    with: (fields) => measuringLogger(onRequest, { ...base, ...fields }),
  };
}

interface PhaseFigures {
  label: string;
  latencies: number[];
  handler: number[];
  cpuMsPerCall: number;
  javaCpuMsPerCall: number;
  loopDelayP99: number;
  seconds: number;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-bench-create-'));
  let handlerTimes: number[] = [];
  const host = await startLocalHost({
    dataDir,
    port: 0,
    delivery: { sandboxLatencyMs: SANDBOX_LATENCY },
    observability: { logger: measuringLogger((ms) => handlerTimes.push(ms)), metrics: noMetrics },
  });
  const java = javaProcessOf(dataDir);
  const storage = makeDocumentClient(
    makeDynamoClient({ region: host.config.region, endpoint: host.config.dynamodbEndpoint }),
  );
  try {
    const admin = makeAdmin({ tenancy: host.deps.tenancy, clock: host.deps.clock });
    // Enterprise: 2,400 creates a minute, so the rate limit does not shape the figures.
    const tenant = await admin.bootstrap({ name: 'Bench', planTier: 'enterprise' });
    const url = `${host.baseUrl}/v1/workspaces/${tenant.workspaceId}/posts`;
    const headers = { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' };
    const create = async (status: 'publish' | 'draft', i: number) => {
      const body = {
        platform: 'twitter',
        accountId: tenant.accounts.twitter,
        status,
        postType: 'text',
        content: `Latency post ${i}`,
      };
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 201) throw new Error(`create answered ${response.status}: ${text}`);
      return { id: (JSON.parse(text) as { id: string }).id, elapsed };
    };

    const measure = async (
      label: string,
      count: number,
      clients: number,
      call: (i: number) => Promise<number>,
    ): Promise<PhaseFigures> => {
      handlerTimes = [];
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const cpu = process.cpuUsage();
      const javaCpu = cpuMsOf(java);
      const started = performance.now();
      const latencies = await inParallel(count, clients, call);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      loop.disable();
      return {
        label,
        latencies,
        handler: handlerTimes,
        cpuMsPerCall: (used.user + used.system) / 1000 / count,
        javaCpuMsPerCall: (cpuMsOf(java) - javaCpu) / count,
        loopDelayP99: loop.percentile(99) / 1e6,
        seconds,
      };
    };

    const published = new Set<string>();
    const awaitPublished = async (ids: string[]) => {
      const deadline = Date.now() + 120_000;
      for (const id of ids) {
        while (!published.has(id)) {
          const post = await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id);
          if (post?.status === 'published') published.add(id);
          else if (Date.now() > deadline) throw new Error(`post ${id} not published within 2 minutes`);
          else await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };

    // Warm-up: JIT, connections, the auth cache.
    const warm = await inParallel(40, 4, (i) => create('publish', i));
    await awaitPublished(warm.map((w) => w.id));

    // The host at rest: the stand-ins' polling (stream, queues, reconciler) costs CPU with no traffic.
    const idleNode = process.cpuUsage();
    const idleJava = cpuMsOf(java);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleUsed = process.cpuUsage(idleNode);
    const idle = {
      node: (idleUsed.user + idleUsed.system) / 1000 / (IDLE_MS / 1000),
      java: (cpuMsOf(java) - idleJava) / (IDLE_MS / 1000),
    };

    const ids: string[] = [];
    const draftIds: string[] = [];
    const timedCreate = (status: 'publish' | 'draft') => async (i: number) => {
      const { id, elapsed } = await create(status, i);
      if (status === 'publish') ids.push(id);
      else draftIds.push(id);
      return elapsed;
    };
    const single = await measure('1 client, publish', SINGLE_CREATES, 1, timedCreate('publish'));
    const loaded = await measure(
      `${CLIENTS} clients, publish`,
      LOADED_CREATES,
      CLIENTS,
      timedCreate('publish'),
    );
    await awaitPublished(ids);
    const drafts = await measure(
      `${CLIENTS} clients, drafts (idle pipeline)`,
      LOADED_CREATES,
      CLIENTS,
      timedCreate('draft'),
    );
    const singleDrafts = await measure(
      '1 client, drafts (idle pipeline)',
      SINGLE_CREATES,
      1,
      timedCreate('draft'),
    );

    // The storage alone: the create's three calls, in order, on items shaped like the real ones.
    const tables = host.config.tables;
    // A draft's item as stored (its index keys included), so the reference writes what a create writes.
    const { Item: sample } = await storage.send(
      new GetCommand({
        TableName: tables.main,
        Key: keys.post(tenant.tenantId, tenant.workspaceId, draftIds[0] ?? ''),
      }),
    );
    const storageSequence = async (i: number) => {
      const started = performance.now();
      await storage.send(
        new UpdateCommand({
          TableName: tables.rateLimits,
          Key: { pk: `bench#${i % 64}` },
          UpdateExpression: 'ADD #count :one SET expiresAt = if_not_exists(expiresAt, :expires)',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':limit': 1e9, ':expires': 2e9 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      await storage.send(
        new BatchGetCommand({
          RequestItems: {
            [tables.main]: {
              Keys: [
                keys.workspace(tenant.tenantId, tenant.workspaceId),
                keys.account(tenant.tenantId, tenant.workspaceId, tenant.accounts.twitter),
              ],
            },
          },
        }),
      );
      // The main table, as a create: its indexes and its stream (the outbox ignores a new draft).
      await storage.send(
        new PutCommand({
          TableName: tables.main,
          Item: { ...sample, pk: `BENCH#${i}#${Math.random()}` },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return performance.now() - started;
    };
    await inParallel(40, 4, storageSequence);
    const storageSingle = await measure(
      'DynamoDB Local alone, 1 caller',
      STORAGE_SEQUENCES,
      1,
      storageSequence,
    );
    const storageLoaded = await measure(
      `DynamoDB Local alone, ${CLIENTS} callers`,
      STORAGE_SEQUENCES,
      CLIENTS,
      storageSequence,
    );

    const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);
    console.log('\nCreate latency (local host: API, outbox and workers in one Node process; DynamoDB Local)');
    console.log(
      `  machine: ${process.platform} ${process.arch}, Node ${process.version}, ${cpus().length} cores`,
    );
    console.log(
      `  ${'phase'.padEnd(40)} ${'p50'.padStart(9)} ${'p99'.padStart(9)}  ${'handler p50'.padStart(11)} ${'handler p99'.padStart(11)}  ${'CPU/call'.padStart(9)} ${'Java/call'.padStart(9)}  ${'loop p99'.padStart(9)}  calls/s`,
    );
    for (const phase of [single, loaded, singleDrafts, drafts, storageSingle, storageLoaded]) {
      const handler = phase.handler.length > 0;
      console.log(
        `  ${phase.label.padEnd(40)} ${ms(percentile(phase.latencies, 50))} ${ms(percentile(phase.latencies, 99))}  ${(handler ? ms(percentile(phase.handler, 50)) : '—').padStart(11)} ${(handler ? ms(percentile(phase.handler, 99)) : '—').padStart(11)}  ${ms(phase.cpuMsPerCall)} ${ms(phase.javaCpuMsPerCall)}  ${ms(phase.loopDelayP99)}  ${(phase.latencies.length / phase.seconds).toFixed(0)}`,
      );
    }
    const singleP99 = percentile(single.latencies, 99);
    const loadedP99 = percentile(loaded.latencies, 99);
    const target = TARGET_FACTOR * singleP99;
    console.log(
      `\n  create p99 under ${CLIENTS} clients ${ms(loadedP99).trim()}   (single client p99 ${ms(singleP99).trim()}; target <= ${TARGET_FACTOR}x = ${ms(target).trim()})  ${loadedP99 <= target ? 'OK' : 'NOT MET'}`,
    );
    const draftsP99 = percentile(drafts.latencies, 99);
    console.log(
      `  the same ${CLIENTS} clients with drafts, pipeline idle: p99 ${ms(draftsP99).trim()} (${(draftsP99 / percentile(singleDrafts.latencies, 99)).toFixed(1)}x the single-client drafts' p99)`,
    );
    console.log(
      `  host at rest (stand-ins polling, no traffic): Node ${idle.node.toFixed(0)} ms CPU/s, DynamoDB Local ${idle.java.toFixed(0)} ms CPU/s`,
    );
    const storageRatio = percentile(storageLoaded.latencies, 99) / percentile(storageSingle.latencies, 99);
    console.log(
      `  DynamoDB Local alone, the same 3 calls: p99 ${ms(percentile(storageLoaded.latencies, 99)).trim()} with ${CLIENTS} callers vs ${ms(percentile(storageSingle.latencies, 99)).trim()} with 1 (${storageRatio.toFixed(1)}x)`,
    );
    // Our share: the request path (HTTP, pipeline, handler) over the storage's own calls, same load.
    const overStorage = (phase: PhaseFigures, reference: PhaseFigures) =>
      `${((percentile(phase.latencies, 99) / percentile(reference.latencies, 99) - 1) * 100).toFixed(0)}%`;
    console.log(
      `  our request path over the storage alone (drafts vs DynamoDB Local alone, p99): ${overStorage(singleDrafts, storageSingle)} with 1 client, ${overStorage(drafts, storageLoaded)} with ${CLIENTS}`,
    );
    // A closed loop of N clients on CPU-bound work cannot go faster than N × CPU per call ÷ cores.
    const cpuPerCreate = drafts.cpuMsPerCall + drafts.javaCpuMsPerCall;
    const floor = (CLIENTS * cpuPerCreate) / cpus().length;
    console.log(
      `  CPU per create (Node + DynamoDB Local, drafts): ${cpuPerCreate.toFixed(1)} ms on ${cpus().length} cores: ${CLIENTS} clients wait at least ${ms(floor).trim()} each, ${(floor / percentile(singleDrafts.latencies, 50)).toFixed(1)}x the single-client drafts' p50`,
    );
    if (storageRatio > TARGET_FACTOR)
      console.log(
        `  DynamoDB Local alone misses the same ${TARGET_FACTOR}x at ${CLIENTS} callers on this machine: the target cannot hold here whatever the request path does`,
      );
  } finally {
    storage.destroy();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark('bench/create-latency.ts', main);
