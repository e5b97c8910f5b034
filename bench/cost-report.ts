/**
 * How bench/cost.ts prints one case's counts, per post, and what they come to per million posts:
 * the same block for a publishing case and for the metrics collection (bench/metrics-cost.ts).
 */
import type { DynamoCallSnapshot } from '../shared/adapters/dynamodb/call-counter.js';
import {
  dollarsOf,
  type Invocation,
  lambdaUsage,
  type PricedService,
  perMillionPosts,
  withEventSourceRequests,
} from './cost-pricing.js';

/** Everything counted for one case, over `posts` posts. */
export interface CaseCounts {
  posts: number;
  /** API requests by operation. */
  apiRequests: ReadonlyMap<string, number>;
  invocations: readonly Invocation[];
  /** The probe's calls, by `service action resource`; receives and deletes are added here. */
  calls: ReadonlyMap<string, number>;
  dynamo: DynamoCallSnapshot;
  /** Schedules that fired during the case (each a billed invocation). */
  schedulerInvocations: number;
}

/** What a case came to, per million posts. */
export interface CaseDollars {
  total: number;
  byService: Map<PricedService, number>;
}

/** Prints the case's counts per post (indented under its label) and returns its dollars per million posts. */
export function printCase(label: string, counts: CaseCounts, tablePrefix = 'local-'): CaseDollars {
  const n = counts.posts;
  const per = (value: number) => (value / n).toFixed(2).replace(/\.00$/, '');
  console.log(`\n  ${label}`);
  const apiTotal = [...counts.apiRequests.values()].reduce((a, b) => a + b, 0);
  console.log(
    `    API Gateway requests      ${per(apiTotal)}${apiTotal > 0 ? `  (${[...counts.apiRequests].map(([op, c]) => `${op} ${per(c)}`).join(', ')})` : ''}`,
  );
  const functions = lambdaUsage(counts.invocations);
  for (const { fn, runs, billedMs, memoryMb, gbSeconds } of functions) {
    console.log(
      `    Lambda ${fn.padEnd(18)} ${per(runs)} invocations, mean ${(billedMs / runs).toFixed(0)} ms at ${memoryMb} MB = ${(gbSeconds / n).toFixed(4)} GB-s`,
    );
  }
  const gbSeconds = functions.reduce((sum, fn) => sum + fn.gbSeconds, 0);
  console.log(
    `    Lambda total              ${per(counts.invocations.length)} invocations, ${(gbSeconds / n).toFixed(4)} GB-s`,
  );
  const { totals } = counts.dynamo;
  console.log(
    `    DynamoDB                  ${per(totals.reads)} reads (${per(totals.readUnits)} RRU), ${per(totals.itemWrites)} item writes in ${per(totals.writes)} calls (${per(totals.writeUnits)} WRU)`,
  );
  const rows = counts.dynamo.byCommand.map(
    (row) =>
      `${row.command} ${row.table.replace(tablePrefix, '')} ${per(row.calls)}${row.kind === 'write' ? ` (${per(row.writeUnits)} WRU)` : ` (${per(row.readUnits)} RRU)`}`,
  );
  console.log(`      ${rows.join('; ')}`);
  // As an event source mapping consumes: one ReceiveMessage and one DeleteMessageBatch per batch it
  // took (here a batch per message: posts one at a time).
  const calls = withEventSourceRequests(counts.calls, counts.invocations);
  for (const service of ['sqs', 'scheduler', 's3', 'kms'] as const) {
    const entries = [...calls].filter(([key]) => key.startsWith(`${service} `));
    const total = entries.reduce((sum, [, count]) => sum + count, 0);
    const fired = service === 'scheduler' ? `, ${per(counts.schedulerInvocations)} fired` : '';
    console.log(
      `    ${service.toUpperCase().padEnd(25)} ${per(total)}${entries.length > 0 ? `  (${entries.map(([key, c]) => `${key.slice(service.length + 1)} ${per(c)}`).join(', ')}${fired})` : fired && `  (${fired.slice(2)})`}`,
    );
  }
  const dollars = dollarsOf({
    apiRequests: apiTotal,
    invocations: counts.invocations,
    calls,
    dynamodbReadUnits: totals.readUnits,
    dynamodbWriteUnits: totals.writeUnits,
    schedulerInvocations: counts.schedulerInvocations,
  });
  const byService = new Map([...dollars].map(([service, value]) => [service, perMillionPosts(value, n)]));
  const total = [...byService.values()].reduce((a, b) => a + b, 0);
  console.log(
    `    $ per million posts       $${total.toFixed(2)}  (${[...byService].map(([service, value]) => `${service} $${value.toFixed(2)}`).join(', ')})`,
  );
  return { total, byService };
}
