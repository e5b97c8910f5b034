/**
 * bench/throughput.ts's names for the DynamoDB calls it counts: which step of a post's way a call
 * belongs to, told apart by the item it touches (and by the phase the benchmark is in, for the
 * calls several steps share: reading a post, the context's BatchGetItem).
 */
import {
  type DynamoCallCount,
  type DynamoCallSnapshot,
  type DynamoCallTotals,
  totalsOf,
} from '../shared/adapters/dynamodb/call-counter.js';

export type Phase = 'api' | 'pipeline';

/** The reconciler's look for overdue posts: on a timer, not per post. */
export const RECONCILER = 'reconciler (every 5 s, not per post)';
/** The create's last call: the stream (and so the worker) can only see the post after it. */
export const CREATE_WRITE = 'api: write the post';

type Input = Readonly<Record<string, unknown>>;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The sort key (or the partition key of a key-only table) a single-item call names. */
function keyOf(input: Input): string {
  const key = record(input.Key ?? input.Item);
  return String(key.sk ?? key.pk ?? '');
}

function queryPrefix(input: Input): string {
  const values = record(input.ExpressionAttributeValues);
  const prefix = values[':prefix'] ?? values[':skPrefix'] ?? values[':sk'];
  return typeof prefix === 'string' ? prefix : String(input.IndexName ?? '');
}

/** A post write's step, by the status it writes. */
function postWrite(item: Record<string, unknown>): string {
  switch (item.status) {
    case 'publishing':
      return 'worker: claim (and lease renewals)';
    case 'published':
    case 'failed':
      return 'worker: settle';
    case 'queued':
    case 'scheduled':
      return Number(item.attempts ?? 0) > 0 ? 'worker: settle (back to the queue)' : CREATE_WRITE;
    default:
      return `post write (${String(item.status)})`;
  }
}

export function classifyCall(
  phase: () => Phase,
  tables: { main: string; rateLimits: string },
): (call: { operation: string; table: string; input: Input }) => string {
  return ({ operation, table, input }) => {
    const side = phase() === 'api' ? 'api' : 'worker';
    if (table === tables.rateLimits) {
      if (keyOf(input).startsWith('QUOTA#')) return 'worker: reserve quota';
      return 'api: rate limit';
    }
    if (operation === 'BatchGetItem') {
      const batch = Object.values(record(input.RequestItems)).map((request) => record(request).Keys);
      const withPost = batch.some(
        (wanted) => Array.isArray(wanted) && wanted.some((key) => String(record(key).sk).startsWith('POST#')),
      );
      if (withPost) return 'worker: read the post with its account and media';
      return `${side}: context (workspace, account, media)`;
    }
    const key = keyOf(input);
    if (operation === 'GetItem' && key.startsWith('POST#'))
      return side === 'api' ? 'api: read the post' : 'worker: read the post (hold until due)';
    if (operation === 'GetItem' && key.startsWith('APIKEY#')) return 'api: authenticate';
    if (operation === 'BatchWriteItem') {
      const requests = Object.values(record(input.RequestItems)).flatMap((list) =>
        Array.isArray(list) ? list : [],
      );
      const entities = new Set(
        requests.map((request) => record(record(record(request).PutRequest).Item).entity),
      );
      if (entities.size === 1 && entities.has('event')) return 'events: append to the feed';
      return `BatchWriteItem ${[...entities].join('+')}`;
    }
    if (operation === 'PutItem' || operation === 'UpdateItem') {
      const item = record(input.Item);
      if (item.entity === 'post') return postWrite(item);
      if (item.entity === 'event') return 'events: append to the feed';
      if (item.entity === 'webhookDelivery') return 'events: webhook delivery';
      if (key.startsWith('APIKEY#')) return 'api: authenticate (lastUsedAt)';
      if (key.startsWith('POST#')) return 'worker: claim (and lease renewals)';
    }
    if (operation === 'Query') {
      if (input.IndexName === 'gsi2') return RECONCILER;
      const prefix = queryPrefix(input);
      if (prefix.startsWith('WEBHOOK#')) return 'events: fan-out (subscribed webhooks)';
      if (prefix.startsWith('POST#') || prefix === 'gsi1') return 'api: list posts';
      return `query ${prefix}`;
    }
    return `${operation} ${key.split('#')[0] ?? ''}`;
  };
}

/** `after` minus `before`, row by row (calls counted between two snapshots). */
export function difference(after: DynamoCallSnapshot, before: DynamoCallSnapshot): DynamoCallSnapshot {
  const keyOfRow = (row: DynamoCallCount) => `${row.label}\u0000${row.table}\u0000${row.command}`;
  const earlier = new Map(before.byCommand.map((row) => [keyOfRow(row), row]));
  const byCommand = after.byCommand
    .map((row) => {
      const was = earlier.get(keyOfRow(row));
      return was
        ? {
            ...row,
            calls: row.calls - was.calls,
            itemWrites: row.itemWrites - was.itemWrites,
            conditional: row.conditional - was.conditional,
            failed: row.failed - was.failed,
            readUnits: row.readUnits - was.readUnits,
            writeUnits: row.writeUnits - was.writeUnits,
          }
        : row;
    })
    .filter((row) => row.calls > 0);
  const totals: DynamoCallTotals = {
    calls: after.totals.calls - before.totals.calls,
    reads: after.totals.reads - before.totals.reads,
    writes: after.totals.writes - before.totals.writes,
    itemWrites: after.totals.itemWrites - before.totals.itemWrites,
    conditionalWrites: after.totals.conditionalWrites - before.totals.conditionalWrites,
    failed: after.totals.failed - before.totals.failed,
    readUnits: after.totals.readUnits - before.totals.readUnits,
    writeUnits: after.totals.writeUnits - before.totals.writeUnits,
  };
  return { byCommand, totals, peakInFlight: after.peakInFlight, inFlight: after.inFlight };
}

/** Two counts added, row by row (the posts of a phase counted one at a time). */
export function plus(a: DynamoCallSnapshot | undefined, b: DynamoCallSnapshot): DynamoCallSnapshot {
  if (!a) return b;
  const keyOfRow = (row: DynamoCallCount) => `${row.label}\u0000${row.table}\u0000${row.command}`;
  const rows = new Map(a.byCommand.map((row) => [keyOfRow(row), { ...row }]));
  for (const row of b.byCommand) {
    const sum = rows.get(keyOfRow(row));
    if (!sum) {
      rows.set(keyOfRow(row), { ...row });
      continue;
    }
    sum.calls += row.calls;
    sum.itemWrites += row.itemWrites;
    sum.conditional += row.conditional;
    sum.failed += row.failed;
    sum.readUnits += row.readUnits;
    sum.writeUnits += row.writeUnits;
  }
  const totals = { ...a.totals };
  for (const name of Object.keys(totals) as (keyof DynamoCallTotals)[]) totals[name] += b.totals[name];
  return {
    byCommand: [...rows.values()],
    totals,
    peakInFlight: Math.max(a.peakInFlight, b.peakInFlight),
    inFlight: b.inFlight,
  };
}

/** The rows whose label `keep` accepts (totals recounted from them). */
export function only(snapshot: DynamoCallSnapshot, keep: (label: string) => boolean): DynamoCallSnapshot {
  const byCommand = snapshot.byCommand.filter((row) => keep(row.label));
  return {
    byCommand,
    totals: totalsOf(byCommand),
    peakInFlight: snapshot.peakInFlight,
    inFlight: snapshot.inFlight,
  };
}

/**
 * Calls per step: `label → {reads, writes, itemWrites, conditional}` summed over tables and
 * commands (writes are write calls; itemWrites the items they wrote).
 */
export function bySteps(snapshot: DynamoCallSnapshot) {
  const steps = new Map<
    string,
    { reads: number; writes: number; itemWrites: number; conditional: number; commands: Set<string> }
  >();
  for (const row of snapshot.byCommand) {
    const step = steps.get(row.label) ?? {
      reads: 0,
      writes: 0,
      itemWrites: 0,
      conditional: 0,
      commands: new Set<string>(),
    };
    if (row.kind === 'read') step.reads += row.calls;
    if (row.kind === 'write') step.writes += row.calls;
    step.itemWrites += row.itemWrites;
    step.conditional += row.conditional;
    step.commands.add(row.command);
    steps.set(row.label, step);
  }
  return steps;
}
