/**
 * `npm run bench`: the delivery pipeline's figures on the local host with the sandbox network.
 * Prints: posts published per second end to end, create latency p50/p99, and scheduled-post start
 * delay p50/p99. Not a test: nothing is asserted; the figures are measured each run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalHost } from '../infra/local/host.js';
import { makeAdmin } from '../shared/services/admin.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const PUBLISH_POSTS = Number(process.env.BENCH_POSTS ?? 300);
const SCHEDULED_POSTS = Number(process.env.BENCH_SCHEDULED ?? 40);
const CONCURRENCY = 16;
const SANDBOX_LATENCY = { min: 20, max: 60 };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function inParallel<T>(
  count: number,
  limit: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-bench-'));
  const host = await startLocalHost({ dataDir, port: 0, delivery: { sandboxLatencyMs: SANDBOX_LATENCY } });
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

    // 1. Throughput and create latency.
    const started = Date.now();
    const created = await inParallel(PUBLISH_POSTS, CONCURRENCY, (i) => create(post(`Benchmark post ${i}`)));
    const published = await waitPublished(created.map((c) => c.id));
    const lastPublished = Math.max(...[...published.values()].map((p) => Date.parse(p.publishedAt)));
    const seconds = (lastPublished - started) / 1000;
    const latencies = created.map((c) => c.elapsed);

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
  } finally {
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error('benchmark failed:', error);
  process.exit(1);
});
