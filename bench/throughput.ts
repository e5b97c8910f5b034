/**
 * `tsx bench/throughput.ts`: the delivery pipeline's throughput against the storage's own ceiling,
 * on the local host (DynamoDB Local, the sandbox network with its simulated latency).
 * 1. The DynamoDB calls of each step (create, get, list; the outbox; the worker's read, claim,
 *    quota, settle; events), counted per post by an SDK middleware on the service's client.
 * 2. The ceiling: DynamoDB Local's own rate of conditional writes in the pipeline's own mix
 *    (post-sized PutItems on the main table, indexes and stream included, and UpdateItems on
 *    rate-limits, as many of each as a post costs), with 16 and 64 writers, before and after the
 *    run; the highest counts. Ceiling in posts/s = that rate ÷ the writes one published post costs.
 * 3. Throughput: after WARM_UP_POSTS published uncounted at the same concurrency (the storage is a
 *    JVM: the run and its ceiling both measure it warm), POSTS posts created by CONCURRENCY clients,
 *    published end to end; published posts/s as a share of the ceiling (target at least 0.8).
 * Not a test: nothing is asserted; every figure is measured in this run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalHost } from '../infra/local/host.js';
import { type DynamoCallSnapshot, makeCallCounter } from '../shared/adapters/dynamodb/call-counter.js';
import { makeDocumentClient, makeDynamoClient } from '../shared/adapters/dynamodb/client.js';
import { keys } from '../shared/adapters/dynamodb/keys.js';
import { makeAdmin } from '../shared/services/admin.js';
import { javaProcessOf, startCpuWatch } from './process-cpu.js';
import { createBenchPost, inParallel, runBenchmark } from './support.js';
import {
  bySteps,
  CREATE_WRITE,
  classifyCall,
  difference,
  only,
  type Phase,
  plus,
  RECONCILER,
} from './throughput-steps.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const POSTS = Number(process.env.BENCH_THROUGHPUT_POSTS ?? 300);
/** Posts followed one at a time for the per-step counts. */
const COUNTED_POSTS = 10;
/**
 * Published at the run's concurrency before anything is measured, uncounted: DynamoDB Local is a
 * JVM, and its own write rate went from 251 to 458 writes/s between before and after a run without
 * this, so the run measured a warming storage against a warm ceiling.
 */
const WARM_UP_POSTS = Number(process.env.BENCH_THROUGHPUT_WARM_UP_POSTS ?? 150);
const CONCURRENCY = 16;
const CEILING_MS = 5000;
/** DynamoDB Local is a JVM: its first seconds of writes are slower than the rest. */
const CEILING_WARM_UP_MS = 2000;
/** Writers at once for the ceiling: the benchmark's clients, and about the worker's in-flight calls. */
const CEILING_WRITERS = [CONCURRENCY, 64];
const SANDBOX_LATENCY = { min: 20, max: 60 };
const TARGET_SHARE = 0.8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-bench-throughput-'));
  let phase: Phase = 'api';
  const tables = { main: 'local-main', rateLimits: 'local-rate-limits' };
  const classify = classifyCall(() => phase, tables);
  const counter = makeCallCounter({
    classify: (call) => {
      const label = classify(call);
      // The post is written: whatever follows is the pipeline's (the stream sees it only now).
      if (label === CREATE_WRITE) phase = 'pipeline';
      return label;
    },
  });
  const sandboxCalls = makeCallCounter();
  const host = await startLocalHost({
    dataDir,
    port: 0,
    dynamodbCalls: counter,
    delivery: { sandboxLatencyMs: SANDBOX_LATENCY, sandboxDynamodbCalls: sandboxCalls },
  });
  // The benchmark's own reads (waiting for posts, the ceiling's loop) go through a client of
  // their own, never counted as the service's.
  const own = makeDynamoClient({ region: host.config.region, endpoint: host.config.dynamodbEndpoint });
  const db = makeDocumentClient(own);
  try {
    if (host.config.tables.main !== tables.main || host.config.tables.rateLimits !== tables.rateLimits)
      throw new Error(`unexpected table names ${JSON.stringify(host.config.tables)}`);
    const admin = makeAdmin({ tenancy: host.deps.tenancy, clock: host.deps.clock });
    // Enterprise: 2,400 creates a minute, so the rate limit does not shape the figures.
    const tenant = await admin.bootstrap({ name: 'Bench', planTier: 'enterprise' });
    const base = `${host.baseUrl}/v1/workspaces/${tenant.workspaceId}/posts`;
    const headers = { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' };
    const poster = { postsUrl: base, apiKey: tenant.apiKey, accountId: tenant.accounts.twitter };
    const create = (content: string) => createBenchPost(poster, content);
    const call = async (path: string) => {
      const response = await fetch(`${base}${path}`, { headers });
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      await response.arrayBuffer();
    };
    const status = async (postId: string) => {
      const { Item } = await db.send(
        new GetCommand({
          TableName: tables.main,
          Key: keys.post(tenant.tenantId, tenant.workspaceId, postId),
        }),
      );
      return Item;
    };
    const settled = () => counter.snapshot().byCommand.filter((row) => row.label === 'worker: settle');
    const settledCount = () => settled().reduce((sum, row) => sum + row.calls - row.failed, 0);
    /**
     * Events in the feed, once no call is in flight: with no webhook subscribed, an event's last
     * calls are the feed's write (one for a batch of events) and the read of the workspace's webhooks.
     */
    const fanOuts = () => {
      const now = counter.snapshot();
      if (now.inFlight > 0) return 0;
      return now.byCommand
        .filter((row) => row.label === 'events: append to the feed')
        .reduce((sum, row) => sum + row.itemWrites, 0);
    };

    // Warm-up: the key's cache, the connections, the code paths.
    phase = 'pipeline';
    const warm = await create('Warm-up');
    await until(async () => (await status(warm))?.status === 'published', 'the warm-up post');
    await until(() => fanOuts() >= 2, 'the warm-up events');

    // 1. Calls per step, one post at a time.
    counter.reset();
    sandboxCalls.reset();
    let createCalls: DynamoCallSnapshot | undefined;
    let pipelineCalls: DynamoCallSnapshot | undefined;
    let getCalls: DynamoCallSnapshot | undefined;
    let listCalls: DynamoCallSnapshot | undefined;
    for (let i = 0; i < COUNTED_POSTS; i++) {
      phase = 'api';
      let before = counter.snapshot();
      const id = await create(`Counted ${i}`);
      await until(async () => (await status(id))?.status === 'published', `counted post ${i}`);
      // Its two events (queued, published) in the feed: the settle write came back before them.
      await until(() => fanOuts() >= 2 * (i + 1), `counted post ${i}'s events`);
      // One window from the create to the last event; its calls' names say whose they are (the
      // worker may start before the create's answer reaches this client).
      const window = difference(counter.snapshot(), before);
      createCalls = plus(
        createCalls,
        only(window, (label) => label.startsWith('api:')),
      );
      pipelineCalls = plus(
        pipelineCalls,
        only(window, (label) => !label.startsWith('api:')),
      );
      phase = 'api';
      before = counter.snapshot();
      await call(`/${id}`);
      getCalls = plus(getCalls, difference(counter.snapshot(), before));
      before = counter.snapshot();
      await call('?limit=20');
      listCalls = plus(listCalls, difference(counter.snapshot(), before));
    }
    const sandboxPerPost = sandboxCalls.snapshot().totals.itemWrites / COUNTED_POSTS;

    // 2. The ceiling: DynamoDB Local's own rate of conditional writes in the pipeline's own mix (as
    // many on each table per post as counted above: post-sized PutItems on the main table, with its
    // indexes and stream, and conditional UpdateItems on rate-limits), on keys of their own (an
    // entity the outbox ignores). A JVM gets faster as it runs: measured before and after the run.
    const template = (await status(warm)) ?? {};
    const counted = plus(createCalls, pipelineCalls ?? createCalls ?? counter.snapshot());
    const writesOn = (table: string) =>
      counted.byCommand
        .filter((row) => row.kind === 'write' && row.table === table)
        .reduce((sum, row) => sum + row.itemWrites, 0);
    const mainShare = (writesOn(tables.main) + sandboxCalls.snapshot().totals.itemWrites) / COUNTED_POSTS;
    const rateShare = writesOn(tables.rateLimits) / COUNTED_POSTS;
    const mix: ('main' | 'rateLimits')[] = [
      ...Array.from({ length: Math.round(mainShare) }, () => 'main' as const),
      ...Array.from({ length: Math.round(rateShare) }, () => 'rateLimits' as const),
    ];
    const writeRate = async (writers: number, ms: number) => {
      let writes = 0;
      const from = performance.now();
      await Promise.all(
        Array.from({ length: writers }, async (_, writer) => {
          const key = { pk: `BENCH#CEILING#${writer}`, sk: `BENCH#CEILING#${writer}` };
          const { Item } = await db.send(new GetCommand({ TableName: tables.main, Key: key }));
          let version = Number(Item?.version ?? 0);
          for (let turn = writer; performance.now() - from < ms; turn++) {
            try {
              if (mix[turn % mix.length] === 'rateLimits') {
                await db.send(
                  new UpdateCommand({
                    TableName: tables.rateLimits,
                    Key: { pk: key.pk },
                    UpdateExpression: 'ADD #count :one',
                    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
                    ExpressionAttributeNames: { '#count': 'count' },
                    ExpressionAttributeValues: { ':one': 1, ':limit': Number.MAX_SAFE_INTEGER },
                  }),
                );
              } else {
                await db.send(
                  new PutCommand({
                    TableName: tables.main,
                    Item: {
                      ...template,
                      ...key,
                      entity: 'benchCeiling',
                      gsi1pk: 'BENCH#CEILING',
                      gsi1sk: `${writer}#${version + 1}`,
                      version: version + 1,
                    },
                    ConditionExpression: 'attribute_not_exists(pk) OR #version = :expected',
                    ExpressionAttributeNames: { '#version': 'version' },
                    ExpressionAttributeValues: { ':expected': version },
                  }),
                );
                version += 1;
              }
              writes += 1;
            } catch (error) {
              if (!(error instanceof ConditionalCheckFailedException)) throw error;
            }
          }
        }),
      );
      return writes / ((performance.now() - from) / 1000);
    };
    const ceilingRates: { when: string; writers: number; rate: number }[] = [];
    const measureCeiling = async (when: string) => {
      for (const writers of CEILING_WRITERS)
        ceilingRates.push({ when, writers, rate: await writeRate(writers, CEILING_MS) });
    };
    phase = 'pipeline';
    counter.reset();
    await inParallel(WARM_UP_POSTS, CONCURRENCY, async (i) => {
      await create(`Warm-up run ${i}`);
    });
    await until(
      () => settledCount() >= WARM_UP_POSTS && fanOuts() >= WARM_UP_POSTS * 2,
      'the warm-up run',
      180_000,
    );
    await writeRate(CONCURRENCY, CEILING_WARM_UP_MS);
    await measureCeiling('before');

    // 3. Throughput.
    phase = 'pipeline';
    counter.reset();
    sandboxCalls.reset();
    // CPU per post, the local host (Node: API, outbox, worker, fan-out, and this benchmark's own
    // polling) and DynamoDB Local (Java): on a shared machine it moves far less than the rates do.
    const cpu = startCpuWatch(javaProcessOf(dataDir));
    const started = performance.now();
    let lastPublished = started;
    let published = 0;
    const watch = (async () => {
      while (published < POSTS) {
        const now = settledCount();
        if (now > published) lastPublished = performance.now();
        published = now;
        await sleep(5);
      }
    })();
    await inParallel(POSTS, CONCURRENCY, async (i) => {
      await create(`Throughput ${i}`);
    });
    // A timer of its own, cleared: a pending 3-minute sleep kept the process alive after the run.
    let giveUp: NodeJS.Timeout | undefined;
    await Promise.race([
      watch,
      new Promise((_, reject) => {
        giveUp = setTimeout(
          () => reject(new Error(`only ${published} of ${POSTS} posts were settled within 3 minutes`)),
          180_000,
        );
      }),
    ]).finally(() => clearTimeout(giveUp));
    const cpuUsed = cpu();
    const seconds = (lastPublished - started) / 1000;
    const postsPerSecond = POSTS / seconds;
    const peakInFlight = counter.snapshot().peakInFlight;
    await until(() => fanOuts() >= POSTS * 2, 'every event of the throughput posts');
    await sleep(100);
    const run = counter.snapshot();
    const { Count: publishedCount } = await db.send(
      new QueryCommand({
        TableName: tables.main,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: {
          ':pk': `${keys.workspacePartition(tenant.tenantId, tenant.workspaceId)}#STATUS#published`,
        },
        Select: 'COUNT',
      }),
    );
    const expected = POSTS + COUNTED_POSTS + 1 + WARM_UP_POSTS;
    if (publishedCount !== expected)
      throw new Error(`${publishedCount} posts published, ${expected} expected`);

    await measureCeiling('after');
    const ceilingWritesPerSecond = Math.max(...ceilingRates.map((measured) => measured.rate));
    // The ceiling is in items written (each of its calls writes one), so a post's cost is too: a
    // batch of the feed's events is one call but as many item writes.
    const writesPerPost = run.totals.itemWrites / POSTS;
    const writeCallsPerPost = run.totals.writes / POSTS;
    const readsPerPost = run.totals.reads / POSTS;
    const sandboxWritesPerPost = sandboxCalls.snapshot().totals.itemWrites / POSTS;
    const storageWritesPerPost = writesPerPost + sandboxWritesPerPost;
    const ceiling = ceilingWritesPerSecond / storageWritesPerPost;
    const share = postsPerSecond / ceiling;

    const fixed = (value: number, digits = 1) => value.toFixed(digits);
    console.log('\nThroughput benchmark (local host, sandbox network, DynamoDB Local)');
    console.log(`  machine: ${process.platform} ${process.arch}, Node ${process.version}`);
    console.log(
      `  DynamoDB Local's own rate, conditional writes in the pipeline's mix (${mix.filter((t) => t === 'main').length} post-sized PutItems on the main table : ${mix.filter((t) => t === 'rateLimits').length} UpdateItems on rate-limits), ${CEILING_MS / 1000} s each: ` +
        ceilingRates
          .map(({ when, writers, rate }) => `${fixed(rate)} writes/s with ${writers} writers ${when} the run`)
          .join(', ') +
        `; the ceiling takes the highest, ${fixed(ceilingWritesPerSecond)}`,
    );
    console.log(
      `  item writes per published post: ${fixed(storageWritesPerPost, 2)} (${fixed(writesPerPost, 2)} the service's, in ${fixed(writeCallsPerPost, 2)} write calls, + ${fixed(sandboxWritesPerPost, 2)} the sandbox network's own ledger); read calls per post: ${fixed(readsPerPost, 2)}`,
    );
    console.log(
      `  ceiling: ${fixed(ceilingWritesPerSecond)} ÷ ${fixed(storageWritesPerPost, 2)} = ${fixed(ceiling)} posts/s`,
    );
    console.log(
      `  published end to end: ${POSTS} posts by ${CONCURRENCY} clients in ${fixed(seconds, 2)} s = ${fixed(postsPerSecond)} posts/s` +
        ` = ${fixed(share, 2)} of the ceiling (target >= ${TARGET_SHARE}) ${share >= TARGET_SHARE ? 'OK' : 'NOT MET'}`,
    );
    console.log(
      `  CPU per published post: ${fixed(cpuUsed.node / POSTS, 2)} ms the local host (Node) + ${fixed(cpuUsed.other / POSTS, 2)} ms DynamoDB Local (Java) = ${fixed((cpuUsed.node + cpuUsed.other) / POSTS, 2)} ms, on ${cpus().length} cores`,
    );
    console.log(`  the service's DynamoDB calls in flight at once, at most: ${peakInFlight}`);
    console.log(
      `\n  DynamoDB calls per operation (mean of ${COUNTED_POSTS} posts, one at a time; warm key cache)`,
    );
    const printSteps = (title: string, snapshot: DynamoCallSnapshot | undefined, per: number) => {
      if (!snapshot) return;
      const rows = [...bySteps(snapshot).entries()].filter(([step]) => step !== RECONCILER);
      const sum = (
        pick: (step: { reads: number; writes: number; itemWrites: number; conditional: number }) => number,
      ) => rows.reduce((acc, [, step]) => acc + pick(step), 0);
      console.log(
        `  ${title.padEnd(44)} ${fixed(sum((s) => s.reads) / per, 2).padStart(5)} reads ${fixed(sum((s) => s.itemWrites) / per, 2).padStart(5)} writes in ${fixed(sum((s) => s.writes) / per, 2)} calls (${fixed(sum((s) => s.conditional) / per, 2)} conditional)`,
      );
      for (const [step, counts] of rows) {
        console.log(
          `    ${step.padEnd(42)} ${fixed(counts.reads / per, 2).padStart(5)}       ${fixed(counts.itemWrites / per, 2).padStart(5)}        ${fixed((counts.reads + counts.writes) / per, 2).padStart(5)} calls  ${[...counts.commands].join(', ')}`,
        );
      }
    };
    printSteps('create (POST .../posts)', createCalls, COUNTED_POSTS);
    printSteps('get (GET .../posts/{id})', getCalls, COUNTED_POSTS);
    printSteps('list (GET .../posts?limit=20)', listCalls, COUNTED_POSTS);
    console.log(
      '  outbox (stream → queues, schedules, events)      0.00 reads  0.00 writes (it only sends messages)',
    );
    printSteps('worker and events, create → published', pipelineCalls, COUNTED_POSTS);
    console.log(
      `    ${'sandbox network ledger (not the service)'.padEnd(42)} ${fixed(0, 2).padStart(5)}       ${fixed(sandboxPerPost, 2).padStart(5)}        ${fixed(sandboxPerPost, 2).padStart(5)} calls  PutItem`,
    );
    // Under load the fan-out's read of the workspace's webhooks is shared by a batch's events.
    printSteps(`under load, per post: create, worker, events (${POSTS} posts)`, run, POSTS);
    const reconcilerReads = run.byCommand
      .filter((row) => row.label === RECONCILER)
      .reduce((sum, row) => sum + row.calls, 0);
    console.log(
      `  whole run: ${fixed(readsPerPost, 2)} reads (${reconcilerReads} of them the reconciler's, on its timer) and ${fixed(writesPerPost, 2)} item writes in ${fixed(writeCallsPerPost, 2)} write calls per post, ${run.totals.failed} calls refused (lost races, conditions)`,
    );
  } finally {
    own.destroy();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark('bench/throughput.ts', main);
