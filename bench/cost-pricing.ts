/**
 * What bench/cost.ts's counts come to in dollars: the prices, the functions' memory, and the
 * arithmetic, shared by the publishing cases and the metrics collection (bench/metrics-cost.ts) so
 * both are priced alike. Pure: test/unit/bench/cost-pricing.test.ts checks it.
 */

/**
 * On-demand list prices, us-east-1, in dollars per request (or per GB-s), beyond the free tiers:
 * docs/cost.md says where each comes from and its date.
 */
export const PRICE = {
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
} as const;

/**
 * Each function's configured memory (MB), as infra/constructs sets it: the operation functions
 * take ServiceFunction's default (service-function.ts), the workers theirs (workers.ts).
 */
export const MEMORY_MB: Readonly<Record<string, number>> = {
  'api (operation)': 1024,
  outbox: 512,
  deliveryWorker: 2048,
  webhookFanOut: 512,
  webhookDispatcher: 512,
  mediaUploaded: 512,
  mediaImporter: 2048,
};

/** A function not in MEMORY_MB is priced at this. */
const DEFAULT_MEMORY_MB = 512;

/** The functions an SQS event source mapping feeds: each invocation is one receive and one delete. */
export const SQS_CONSUMERS: Readonly<Record<string, string>> = {
  deliveryWorker: 'delivery',
  webhookFanOut: 'events',
  webhookDispatcher: 'webhook-delivery',
  mediaImporter: 'media-import',
};

/** One run of a handler, as the local host's probe reports it. */
export interface Invocation {
  fn: string;
  records: number;
  ms: number;
}

/** One function's runs, billed: per 1 ms, rounded up, at its configured memory. */
export interface FunctionUsage {
  fn: string;
  runs: number;
  billedMs: number;
  memoryMb: number;
  gbSeconds: number;
}

/** The invocations grouped by function, in the order each first ran, with their GB-seconds. */
export function lambdaUsage(invocations: readonly Invocation[]): FunctionUsage[] {
  const byFn = new Map<string, FunctionUsage>();
  for (const { fn, ms } of invocations) {
    const memoryMb = MEMORY_MB[fn] ?? DEFAULT_MEMORY_MB;
    const usage = byFn.get(fn) ?? { fn, runs: 0, billedMs: 0, memoryMb, gbSeconds: 0 };
    usage.runs += 1;
    usage.billedMs += Math.ceil(ms);
    usage.gbSeconds = (usage.billedMs / 1000) * (memoryMb / 1024);
    byFn.set(fn, usage);
  }
  return [...byFn.values()];
}

/**
 * The calls with the receives and deletes an SQS event source mapping makes added: one
 * ReceiveMessage and one DeleteMessageBatch per batch a consumer function was handed (one
 * invocation). Keys as the probe names calls: `sqs ReceiveMessage delivery`.
 */
export function withEventSourceRequests(
  calls: ReadonlyMap<string, number>,
  invocations: readonly Invocation[],
): Map<string, number> {
  const all = new Map(calls);
  for (const { fn } of invocations) {
    const queue = SQS_CONSUMERS[fn];
    if (!queue) continue;
    for (const action of ['ReceiveMessage', 'DeleteMessageBatch']) {
      const key = `sqs ${action} ${queue}`;
      all.set(key, (all.get(key) ?? 0) + 1);
    }
  }
  return all;
}

/** Everything a run counted, for any number of posts. */
export interface AwsUsage {
  apiRequests: number;
  invocations: readonly Invocation[];
  /** The probe's calls (`sqs SendMessage delivery`, `s3 PUT`, `kms Decrypt`), receives and deletes included. */
  calls: ReadonlyMap<string, number>;
  dynamodbReadUnits: number;
  dynamodbWriteUnits: number;
  /** Schedules that fired (each one billed invocation); creating and deleting them is free. */
  schedulerInvocations: number;
}

/** The services priced, in the order the benchmark prints them. */
export const PRICED_SERVICES = [
  'API Gateway',
  'Lambda',
  'DynamoDB',
  'SQS',
  'SCHEDULER',
  'S3',
  'KMS',
] as const;
export type PricedService = (typeof PRICED_SERVICES)[number];

function callsOf(calls: ReadonlyMap<string, number>, service: string): [string, number][] {
  return [...calls].filter(([key]) => key.startsWith(`${service} `));
}

/** What one S3 request costs: writes (PUT, POST) at the write price, everything else at the read price. */
function s3Price(key: string): number {
  return /(PUT|POST)$/.test(key) ? PRICE.s3Put : PRICE.s3Get;
}

/** The usage in dollars, by service (every service present, 0 where nothing was counted). */
export function dollarsOf(usage: AwsUsage): Map<PricedService, number> {
  const gbSeconds = lambdaUsage(usage.invocations).reduce((sum, fn) => sum + fn.gbSeconds, 0);
  const total = (service: string, price: (key: string) => number) =>
    callsOf(usage.calls, service).reduce((sum, [key, count]) => sum + count * price(key), 0);
  return new Map<PricedService, number>([
    ['API Gateway', usage.apiRequests * PRICE.apiGatewayHttpRequest],
    ['Lambda', usage.invocations.length * PRICE.lambdaRequest + gbSeconds * PRICE.lambdaArmGbSecond],
    [
      'DynamoDB',
      usage.dynamodbWriteUnits * PRICE.dynamodbWriteUnit + usage.dynamodbReadUnits * PRICE.dynamodbReadUnit,
    ],
    ['SQS', total('sqs', () => PRICE.sqsRequest)],
    ['SCHEDULER', usage.schedulerInvocations * PRICE.schedulerInvocation],
    ['S3', total('s3', s3Price)],
    ['KMS', total('kms', () => PRICE.kmsRequest)],
  ]);
}

/** Dollars for `posts` posts, scaled to a million posts. */
export function perMillionPosts(dollars: number, posts: number): number {
  if (!(posts > 0)) throw new RangeError(`posts must be positive, got ${posts}.`);
  return (dollars / posts) * 1e6;
}

/** The network reads a post's collection makes: one per slot when read alone, fewer when batched. */
export function networkReadsPerMillionPosts(
  slots: number,
  batchSize: number,
): { alone: number; batched: number } {
  if (!(batchSize >= 1)) throw new RangeError(`batchSize must be at least 1, got ${batchSize}.`);
  return { alone: slots * 1e6, batched: (slots * 1e6) / batchSize };
}
