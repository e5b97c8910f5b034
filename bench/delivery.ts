/**
 * `npm run bench`: the delivery pipeline's figures on the local host with the sandbox network.
 * Prints: posts published per second end to end, create latency p50/p99, scheduled-post start
 * delay p50/p99, webhook deliveries per second, and the p50/p99 time from a state change
 * (post.published's createdAt) to a loopback receiver's request, both during the burst and with
 * posts paced so the pipeline keeps up. Not a test: nothing is asserted; the figures are measured
 * each run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalHost } from '../infra/local/host.js';
import { makeAdmin } from '../shared/services/admin.js';
import { type ReceivedWebhook, startWebhookReceiver } from '../test/e2e/support/webhook-receiver.js';
import { inParallel, percentile, runBenchmark } from './support.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const PUBLISH_POSTS = Number(process.env.BENCH_POSTS ?? 300);
const SCHEDULED_POSTS = Number(process.env.BENCH_SCHEDULED ?? 40);
/** Posts created one at a time, PACE_MS apart, for the webhook latency of a pipeline that keeps up. */
const PACED_POSTS = Number(process.env.BENCH_PACED ?? 40);
const PACE_MS = 250;
const CONCURRENCY = 16;
const SANDBOX_LATENCY = { min: 20, max: 60 };

/** Waits until `done()` or the deadline; the webhook figures need every delivery in. */
async function until(done: () => boolean, what: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-bench-'));
  const host = await startLocalHost({ dataDir, port: 0, delivery: { sandboxLatencyMs: SANDBOX_LATENCY } });
  const receiver = await startWebhookReceiver();
  try {
    const admin = makeAdmin({ tenancy: host.deps.tenancy, clock: host.deps.clock });
    // Enterprise: 2,400 creates a minute, so the rate limit does not shape the figures.
    const tenant = await admin.bootstrap({ name: 'Bench', planTier: 'enterprise' });
    const url = `${host.baseUrl}/v1/workspaces/${tenant.workspaceId}/posts`;
    const headers = { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' };
    const create = async (body: object) => {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      const elapsed = performance.now() - started;
      if (response.status !== 201)
        throw new Error(`create answered ${response.status}: ${await response.text()}`);
      return { id: ((await response.json()) as { id: string }).id, elapsed };
    };
    const post = (content: string, extra: object = {}) => ({
      platform: 'twitter',
      accountId: tenant.accounts.twitter,
      status: 'publish',
      postType: 'text',
      content,
      ...extra,
    });
    const waitPublished = async (ids: string[]) => {
      const pending = new Set(ids);
      const published = new Map<string, { publishedAt: string; scheduledAt?: string }>();
      const deadline = Date.now() + 180_000;
      while (pending.size > 0 && Date.now() < deadline) {
        for (const id of [...pending]) {
          const stored = await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id);
          if (stored?.status === 'published' && stored.publishedAt) {
            published.set(id, {
              publishedAt: stored.publishedAt,
              ...(stored.scheduledAt && { scheduledAt: stored.scheduledAt }),
            });
            pending.delete(id);
          } else if (stored?.status === 'failed')
            throw new Error(`post ${id} failed: ${JSON.stringify(stored.error)}`);
        }
        if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (pending.size > 0) throw new Error(`${pending.size} posts were not published within 3 minutes`);
      return published;
    };

    // Two loopback receivers (the local host allows them): one for post.published, one for every
    // post event, so each published post makes three deliveries (queued once, published twice).
    const webhooksUrl = `${host.baseUrl}/v1/workspaces/${tenant.workspaceId}/webhooks`;
    for (const [path, events] of [
      ['/published', ['post.published']],
      ['/all', ['post.queued', 'post.scheduled', 'post.published', 'post.failed']],
    ] as const) {
      const response = await fetch(webhooksUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url(path), events }),
      });
      if (response.status !== 201)
        throw new Error(`register answered ${response.status}: ${await response.text()}`);
    }
    const bodyOf = (r: ReceivedWebhook) =>
      JSON.parse(r.rawBody.toString('utf8')) as { type: string; createdAt: string };
    /** The first arrival of each (receiver, event): a retry after a time-out would arrive twice. */
    const firstArrivals = (requests: readonly ReceivedWebhook[]) => {
      const seen = new Set<string>();
      return requests.filter((r) => {
        const key = `${r.path} ${String(r.headers['x-webhook-id'])}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    };
    const publishedDeliveries = (requests: readonly ReceivedWebhook[]) =>
      firstArrivals(requests).filter((r) => bodyOf(r).type === 'post.published');

    // 1. Throughput and create latency.
    const started = Date.now();
    const created = await inParallel(PUBLISH_POSTS, CONCURRENCY, (i) => create(post(`Benchmark post ${i}`)));
    const published = await waitPublished(created.map((c) => c.id));
    const lastPublished = Math.max(...[...published.values()].map((p) => Date.parse(p.publishedAt)));
    const seconds = (lastPublished - started) / 1000;
    const latencies = created.map((c) => c.elapsed);
    // Every post of phase 1 makes three deliveries; wait for all of them before phase 2 adds more.
    const phaseOneDeliveries = PUBLISH_POSTS * 3;
    await until(
      () => firstArrivals(receiver.received).length >= phaseOneDeliveries,
      'every webhook delivery of phase 1',
    );
    const phaseOne = firstArrivals(receiver.received).slice(0, phaseOneDeliveries);
    const lastDelivery = Math.max(...phaseOne.map((r) => r.receivedAt));
    const deliverySeconds = (lastDelivery - started) / 1000;
    // From the state change (the event's createdAt: publishedAt) to the receiver's request.
    const deliveryLags = publishedDeliveries(phaseOne).map(
      (r) => r.receivedAt - Date.parse(bodyOf(r).createdAt),
    );

    // 2. Scheduled start delay: posts due 4–8 s from now, spread out.
    const base = Date.now() + 4000;
    const scheduled = await inParallel(SCHEDULED_POSTS, CONCURRENCY, (i) =>
      create(
        post(`Scheduled ${i}`, { status: 'scheduled', scheduledAt: new Date(base + i * 100).toISOString() }),
      ),
    );
    const scheduledResults = await waitPublished(scheduled.map((s) => s.id));
    // publishedAt includes the sandbox's simulated network time; the start is when the worker began.
    const delays = [...scheduledResults.values()].map(
      (p) => Date.parse(p.publishedAt) - Date.parse(p.scheduledAt ?? ''),
    );

    // 3. Webhook latency when the pipeline keeps up: one post every PACE_MS, its deliveries timed.
    await until(
      () => publishedDeliveries(receiver.received).length >= (PUBLISH_POSTS + SCHEDULED_POSTS) * 2,
      'every post.published delivery of phases 1 and 2',
    );
    const repeated = receiver.received.length - firstArrivals(receiver.received).length;
    const pacedFrom = receiver.received.length;
    for (let i = 0; i < PACED_POSTS; i++) {
      await create(post(`Paced ${i}`));
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
    await until(
      () => publishedDeliveries(receiver.received.slice(pacedFrom)).length >= PACED_POSTS * 2,
      'every post.published delivery of the paced posts',
    );
    const pacedLags = publishedDeliveries(receiver.received.slice(pacedFrom)).map(
      (r) => r.receivedAt - Date.parse(bodyOf(r).createdAt),
    );

    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log('\nDelivery benchmark (local host, sandbox network, DynamoDB Local)');
    console.log(`  machine: ${process.platform} ${process.arch}, Node ${process.version}`);
    console.log(
      `  sandbox latency per call: ${SANDBOX_LATENCY.min}–${SANDBOX_LATENCY.max} ms; ${CONCURRENCY} concurrent clients`,
    );
    console.log(
      `  published end to end: ${PUBLISH_POSTS} posts in ${seconds.toFixed(2)} s = ${(PUBLISH_POSTS / seconds).toFixed(1)} posts/s`,
    );
    console.log(
      `  create latency (HTTP round trip): p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}`,
    );
    console.log(
      `  scheduled start delay (publishedAt − scheduledAt, includes the sandbox's ${SANDBOX_LATENCY.min}–${SANDBOX_LATENCY.max} ms): ` +
        `p50 ${ms(percentile(delays, 50))}, p99 ${ms(percentile(delays, 99))}, min ${ms(Math.min(...delays))} over ${SCHEDULED_POSTS} posts`,
    );
    console.log(
      `  webhook deliveries (2 loopback receivers, signed POSTs): ${phaseOneDeliveries} in ${deliverySeconds.toFixed(2)} s = ${(phaseOneDeliveries / deliverySeconds).toFixed(1)} deliveries/s; ${repeated} sent again after a failed attempt`,
    );
    console.log(
      `  state change → receiver (post.published createdAt → request), one post every ${PACE_MS} ms: p50 ${ms(percentile(pacedLags, 50))}, p99 ${ms(percentile(pacedLags, 99))} over ${pacedLags.length} deliveries`,
    );
    console.log(
      `  the same during the ${PUBLISH_POSTS}-post burst (deliveries queue behind the posts): p50 ${ms(percentile(deliveryLags, 50))}, p99 ${ms(percentile(deliveryLags, 99))} over ${deliveryLags.length} deliveries`,
    );
  } finally {
    await host.stop();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark('bench/delivery.ts', main);
