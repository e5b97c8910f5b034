/**
 * The metrics half of bench/cost.ts (issue 28): every AWS request collecting a published post's
 * metrics costs over its whole schedule (1 h, 6 h, 24 h, 3 d, 7 d, 30 d after publication:
 * shared/domain/metrics-schedule.ts), counted on a local host whose clock the bench moves.
 *
 * Sandbox posts, published two minutes apart on the bench's clock so each schedule's steps run
 * alone, as bench/cost.ts's posts do: every handler run holds one post's records, the most
 * invocations a post can cost. Two cases (CASES): posts read alone (LinkedIn), and posts read in one
 * batch (X, the first post's schedule reading the others). For each schedule's slot the clock moves
 * as time would in AWS: to a second after the slot's schedule fires (a minute before the slot,
 * SCHEDULE_LEAD_MS), when the schedule sends the post's message and the worker, as the message is
 * at most that early (METRICS_EARLY_READ_MS), reads the sandbox's numbers at once and writes the
 * post; the outbox then schedules the next slot and sends post.metrics.
 * Counted as bench/cost.ts counts (Lambda runs and durations, DynamoDB units, the probe's SQS,
 * Scheduler and KMS calls); the schedules that fire are read from the local scheduler's file just
 * before each step (the probe sees their creation, not their firing).
 * Not a test: it throws only when a post's schedule does not run as it should (the figures would
 * then mean nothing).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalHost } from '../infra/local/host.js';
import type { LocalProbe, ProbedService } from '../infra/local/local-probe.js';
import { makeCallCounter } from '../shared/adapters/dynamodb/call-counter.js';
import { makeDocumentClient, makeDynamoClient } from '../shared/adapters/dynamodb/client.js';
import { keys } from '../shared/adapters/dynamodb/keys.js';
import { SCHEDULE_LEAD_MS } from '../shared/domain/delivery-effects.js';
import type { PostMetricsState } from '../shared/domain/metrics.js';
import { METRICS_SLOTS_SECONDS } from '../shared/domain/metrics-schedule.js';
import { NETWORK_DEFINITIONS } from '../shared/networks/definitions.js';
import type { Clock } from '../shared/ports/clock.js';
import { silentLogger } from '../shared/ports/logger.js';
import { noMetrics } from '../shared/ports/metrics.js';
import { makeAdmin } from '../shared/services/admin.js';
import { type Invocation, networkReadsPerMillionPosts } from './cost-pricing.js';
import type { CaseCounts } from './cost-report.js';

const POSTS = Number(process.env.BENCH_METRICS_POSTS ?? 4);
/** BENCH_METRICS_TRACE=1: each call and run as it is counted, at the bench's clock (to see what a step did). */
const TRACE = process.env.BENCH_METRICS_TRACE === '1';
/**
 * Between two posts' publications on the bench's clock: one post's steps never meet the next's
 * (a schedule fires a minute early), and up to 7 posts fall within one batch's 15 minutes.
 */
const STAGGER_MS = 2 * 60_000;
if (!(POSTS >= 1 && POSTS <= 7))
  throw new RangeError('BENCH_METRICS_POSTS: 1 to 7 (one batch within 15 minutes).');
/** Quiet for this long (no DynamoDB call, no probe event) after a step's own sign = its work is done. */
const QUIET_MS = 500;
/** How long a step's sign may take to show. */
const STEP_TIMEOUT_MS = 15_000;
/** The collection host's tables (it may share bench/cost.ts's DynamoDB Local). */
export const METRICS_TABLE_PREFIX = 'metrics-';

/** Real time plus the jumps the bench makes: the host's timers keep running, its due times come when told. */
function jumpingClock(): Clock & { jumpTo(at: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    jumpTo(at: number) {
      offset = Math.max(offset, at - Date.now());
    },
  };
}

/** What the collection of `posts` posts counted, ready for printCase. */
export interface CollectionCounts extends CaseCounts {
  /** Readings stored per post (the schedule's slots, when all went well). */
  readingsPerPost: number;
}

export interface CollectionCase {
  label: string;
  /** The label in the closing summary. */
  short: string;
  counts: CollectionCounts;
}

/**
 * Read alone: LinkedIn takes one post a read, so each post's own schedule reads it. Batched: X reads
 * up to 100 posts of an account at once, so the first post's schedule reads the others published
 * within 15 minutes of it (METRICS_BATCH_WINDOW_MS) with it, and theirs move on without firing. X
 * bills each read, so a workspace collects it only when its setting says so: the bench's does.
 */
const CASES = [
  {
    label: 'read alone (LinkedIn: one post a read)',
    short: 'read alone (LinkedIn)',
    platform: 'linkedin',
    batched: false,
  },
  {
    label: `read in one batch of ${POSTS} (X: up to 100 posts of an account)`,
    short: `batch of ${POSTS} (X)`,
    platform: 'twitter',
    batched: true,
  },
] as const;

interface PostRef {
  postId: string;
  publishedAt: number;
}

/**
 * For each case, publishes `POSTS` sandbox posts on a host of its own (on `dynamodbEndpoint` when
 * given, else its own DynamoDB Local), takes them through their whole metrics schedule, and returns
 * what the collection alone cost (publishing them is not in it).
 */
export async function measureCollection(
  options: { dynamodbEndpoint?: string } = {},
): Promise<CollectionCase[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-bench-metrics-'));
  const clock = jumpingClock();
  let calls = new Map<string, number>();
  let invocations: Invocation[] = [];
  let lastActivity = Date.now();
  const probe: LocalProbe = {
    call(service: ProbedService, action: string, resource?: string) {
      lastActivity = Date.now();
      const key = `${service} ${action}${resource ? ` ${resource}` : ''}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
      if (TRACE) console.log(`    [${new Date(clock.now()).toISOString()}] ${key}`);
    },
    invocation(fn, records, ms) {
      lastActivity = Date.now();
      invocations.push({ fn, records, ms });
      if (TRACE) console.log(`    [${new Date(clock.now()).toISOString()}] ${fn} (${records} records)`);
    },
  };
  const dynamodb = makeCallCounter({ consumedCapacity: true });
  const host = await startLocalHost({
    dataDir,
    port: 0,
    ...(options.dynamodbEndpoint && { dynamodbEndpoint: options.dynamodbEndpoint }),
    tablePrefix: METRICS_TABLE_PREFIX,
    clock,
    delivery: { reconcileIntervalMs: 3_600_000, tokenRefreshIntervalMs: false },
    dynamodbCalls: dynamodb,
    probe,
    observability: { logger: silentLogger, metrics: noMetrics },
  });
  // The bench's own reads (where is the post now?) go through a client nobody counts.
  const reader = makeDocumentClient(
    makeDynamoClient({ region: host.config.region, endpoint: host.config.dynamodbEndpoint }),
  );
  try {
    const admin = makeAdmin({ tenancy: host.deps.tenancy, clock });
    const tenant = await admin.bootstrap({ name: 'Metrics cost', planTier: 'enterprise' });
    await admin.setMetricsCollection({ ...tenant, platforms: ['linkedin', 'twitter'] });
    const postItem = async (postId: string) =>
      (
        await reader.send(
          new GetCommand({
            TableName: host.config.tables.main,
            Key: keys.post(tenant.tenantId, tenant.workspaceId, postId),
          }),
        )
      ).Item as { status?: string; publishedAt?: string; metrics?: PostMetricsState } | undefined;
    const waitFor = async <T>(what: string, sign: () => Promise<T | undefined>): Promise<T> => {
      const deadline = Date.now() + STEP_TIMEOUT_MS;
      for (;;) {
        const value = await sign();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`${what} did not happen within ${STEP_TIMEOUT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const quiet = async () => {
      let seen = dynamodb.snapshot().totals.calls;
      lastActivity = Date.now();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const now = dynamodb.snapshot().totals.calls;
        if (now !== seen) {
          seen = now;
          lastActivity = Date.now();
        }
        if (Date.now() - lastActivity >= QUIET_MS && dynamodb.snapshot().inFlight === 0) return;
      }
    };
    /** The local scheduler's schedules due by `at` (its file is written before CreateSchedule answers). */
    const schedulesDueBy = (at: number): number => {
      const file = JSON.parse(readFileSync(join(dataDir, 'scheduler.json'), 'utf8')) as {
        schedules: { fireAt: string }[];
      };
      return file.schedules.filter((schedule) => Date.parse(schedule.fireAt) <= at).length;
    };

    const publish = async (platform: 'linkedin' | 'twitter', i: number): Promise<PostRef> => {
      const response = await fetch(`${host.baseUrl}/v1/workspaces/${tenant.workspaceId}/posts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          platform,
          accountId: tenant.accounts[platform],
          status: 'publish',
          postType: 'text',
          content: `Metrics cost post ${i}`,
        }),
      });
      if (response.status !== 201)
        throw new Error(`create answered ${response.status}: ${await response.text()}`);
      const { id } = (await response.json()) as { id: string };
      const published = await waitFor(`post ${id} published`, async () => {
        const item = await postItem(id);
        if (item?.status === 'failed') throw new Error(`post ${id} failed`);
        return item?.status === 'published' && item.metrics?.collection ? item : undefined;
      });
      await quiet();
      return { postId: id, publishedAt: Date.parse(published.publishedAt as string) };
    };

    let schedulerInvocations = 0;
    /** Moves the clock through the schedules of `targets` (a batch's companions are read with them). */
    const collect = async (targets: PostRef[], counted: boolean) => {
      const steps = targets
        .flatMap((post) =>
          METRICS_SLOTS_SECONDS.flatMap((seconds) => {
            const slot = post.publishedAt + seconds * 1000;
            return [{ at: slot - SCHEDULE_LEAD_MS + 1000, post }];
          }),
        )
        .sort((a, b) => a.at - b.at);
      for (const step of steps) {
        const due = schedulesDueBy(step.at);
        if (due !== 1) throw new Error(`expected the post's one schedule due at a step, found ${due}`);
        if (counted) schedulerInvocations += due;
        const before = (await postItem(step.post.postId))?.metrics;
        const readings = before?.readings.length ?? 0;
        clock.jumpTo(step.at);
        // The schedule fired a minute early and the worker read at once: a reading, the next slot set.
        await waitFor(`post ${step.post.postId}'s reading ${readings + 1}`, async () => {
          const metrics = (await postItem(step.post.postId))?.metrics;
          return (metrics?.readings.length ?? 0) > readings &&
            metrics?.collection?.nextCollectAt !== before?.collection?.nextCollectAt
            ? true
            : undefined;
        });
        await quiet();
      }
    };

    // A warm-up post's whole schedule first (connections, JIT, the auth caches), uncounted; then
    // each case's posts, published after it (its steps would fire theirs).
    await collect([await publish('linkedin', -1)], false);
    const results: CollectionCase[] = [];
    for (const { label, short, platform, batched } of CASES) {
      const posts: PostRef[] = [];
      for (let i = 0; i < POSTS; i++) {
        clock.jumpTo(clock.now() + STAGGER_MS);
        posts.push(await publish(platform, i));
      }
      calls = new Map();
      invocations = [];
      schedulerInvocations = 0;
      dynamodb.reset();
      // Batched: the first post's schedule reads the others with it; theirs move on unfired.
      await collect(batched ? posts.slice(0, 1) : posts, true);
      // Copies: the next case's publishing would add to these before they are replaced.
      const counted = {
        calls: new Map(calls),
        invocations: [...invocations],
        dynamo: dynamodb.snapshot(),
        schedulerInvocations,
      };
      let readingsTotal = 0;
      for (const post of posts) {
        const metrics = (await postItem(post.postId))?.metrics;
        if (metrics?.collection) throw new Error(`post ${post.postId}'s collection did not end`);
        const readings = metrics?.readings.length ?? 0;
        if (readings !== METRICS_SLOTS_SECONDS.length)
          throw new Error(`post ${post.postId} has ${readings} readings, not one per slot`);
        readingsTotal += readings;
      }
      results.push({
        label,
        short,
        counts: { posts: POSTS, apiRequests: new Map(), ...counted, readingsPerPost: readingsTotal / POSTS },
      });
    }
    return results;
  } finally {
    reader.destroy();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The networks' reads a million posts' collections make, computed (not measured: the sandbox
 * makes no request): one read per slot, each a batch of up to the network's metrics.batchSize
 * posts of one account. Not AWS cost; what a read costs on each network is its own note.
 */
export function printNetworkReads(): void {
  const slots = METRICS_SLOTS_SECONDS.length;
  console.log(
    `\n  Network reads per million posts' collections (${slots} slots; not AWS cost; computed from each network's metrics.batchSize, not measured)`,
  );
  const count = (value: number) => Math.round(value).toLocaleString('en-US');
  for (const definition of NETWORK_DEFINITIONS) {
    const metrics = definition.metrics;
    if (!metrics) {
      console.log(`    ${definition.displayName.padEnd(10)} no metrics`);
      continue;
    }
    const reads = networkReadsPerMillionPosts(slots, metrics.batchSize);
    const range =
      metrics.batchSize === 1
        ? `${count(reads.alone)} reads (one post each)`
        : `${count(reads.alone)} reads with one post each … ${count(reads.batched)} with ${metrics.batchSize} posts of an account each`;
    console.log(`    ${definition.displayName.padEnd(10)} ${range}`);
    if (metrics.cost) console.log(`      ${metrics.cost}`);
  }
}
