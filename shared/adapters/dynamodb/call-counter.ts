import type { DynamoDBClient, ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/client-dynamodb';
import type { InitializeHandler, InitializeHandlerArguments, InitializeMiddleware } from '@smithy/types';

/**
 * Counts the DynamoDB calls a client makes, by command and table, for the benchmarks (throughput,
 * cost) and for tests that assert how many round trips an operation takes. Never attached in a
 * deployment: the local host attaches it only when a caller hands it one.
 */

export type DynamoCallKind = 'read' | 'write' | 'other';

export interface DynamoCallCount {
  /** What the caller's `classify` named the call ('' without one): a benchmark's step names. */
  label: string;
  /** The low-level operation: PutItem, UpdateItem, Query, TransactWriteItems… (never the document client's alias). */
  command: string;
  /** The table, or the tables joined by `+` for a batch or a transaction over several. */
  table: string;
  kind: DynamoCallKind;
  calls: number;
  /**
   * Items the write calls that succeeded wrote: one per PutItem, UpdateItem or DeleteItem, one per
   * request of a BatchWriteItem it did not leave unprocessed, one per write of a TransactWriteItems
   * (its condition checks write nothing).
   */
  itemWrites: number;
  /** Writes that carried a condition (a ConditionExpression, or a transaction with one). */
  conditional: number;
  /** Calls DynamoDB refused (a failed condition, a cancelled transaction, any error). */
  failed: number;
  /** Consumed capacity, when the response carried it (ask with `consumedCapacity: true`). */
  readUnits: number;
  writeUnits: number;
}

export interface DynamoCallTotals {
  calls: number;
  reads: number;
  /** Write calls. */
  writes: number;
  /** Items written by them (a batch of 25 is one write call and 25 item writes). */
  itemWrites: number;
  conditionalWrites: number;
  failed: number;
  readUnits: number;
  writeUnits: number;
}

export interface DynamoCallSnapshot {
  /** One row per (label, table, command), sorted in that order. */
  byCommand: DynamoCallCount[];
  totals: DynamoCallTotals;
  /** The most calls that were in flight at once since the last reset. */
  peakInFlight: number;
  /** Calls in flight now (a benchmark waits for none before it closes a window). */
  inFlight: number;
}

export interface DynamoCallCounter {
  /** Counts every call of this client from now on (the document client built on it too). */
  attach(client: DynamoDBClient): void;
  snapshot(): DynamoCallSnapshot;
  reset(): void;
}

export interface CallCounterOptions {
  /**
   * Ask DynamoDB for the capacity each call consumed (ReturnConsumedCapacity TOTAL, unless the
   * caller asked for more) so the snapshot holds read and write units. DynamoDB Local answers it.
   */
  consumedCapacity?: boolean;
  /** Names each call (a benchmark tells its steps apart by the item a call touches). */
  classify?: (call: { operation: string; table: string; input: Readonly<Record<string, unknown>> }) => string;
}

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
/** lib-dynamodb's command names → the operation DynamoDB sees. */
const DOCUMENT_ALIASES: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};

export function operationName(commandName: string | undefined): string {
  const bare = (commandName ?? 'Unknown').replace(/Command$/, '');
  return DOCUMENT_ALIASES[bare] ?? bare;
}

export function kindOf(operation: string): DynamoCallKind {
  if (READS.has(operation)) return 'read';
  if (WRITES.has(operation)) return 'write';
  return 'other';
}

type Input = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The table(s) a call names: TableName, a batch's RequestItems keys, or a transaction's items. */
function tablesOf(input: Input): string {
  if (typeof input.TableName === 'string') return input.TableName;
  const names = new Set<string>();
  if (isRecord(input.RequestItems)) for (const name of Object.keys(input.RequestItems)) names.add(name);
  if (Array.isArray(input.TransactItems)) {
    for (const item of input.TransactItems) {
      if (!isRecord(item)) continue;
      for (const action of Object.values(item)) {
        if (isRecord(action) && typeof action.TableName === 'string') names.add(action.TableName);
      }
    }
  }
  return names.size > 0 ? [...names].sort().join('+') : '-';
}

/** The requests of a batch's per-table map (RequestItems, UnprocessedItems), all tables together. */
function requestsIn(byTable: unknown): number {
  if (!isRecord(byTable)) return 0;
  return Object.values(byTable).reduce<number>(
    (sum, requests) => sum + (Array.isArray(requests) ? requests.length : 0),
    0,
  );
}

/** How many items a write call writes (see DynamoCallCount.itemWrites). */
function itemWritesOf(operation: string, input: Input): number {
  if (operation === 'BatchWriteItem') return requestsIn(input.RequestItems);
  if (operation === 'TransactWriteItems' && Array.isArray(input.TransactItems))
    return input.TransactItems.filter((item) => isRecord(item) && !isRecord(item.ConditionCheck)).length;
  return kindOf(operation) === 'write' ? 1 : 0;
}

/** The requests a BatchWriteItem answered as unprocessed (written by no one yet). */
function unprocessedOf(output: unknown): number {
  return isRecord(output) ? requestsIn(output.UnprocessedItems) : 0;
}

function isConditional(input: Input): boolean {
  if (typeof input.ConditionExpression === 'string' || isRecord(input.Expected)) return true;
  if (!Array.isArray(input.TransactItems)) return false;
  return input.TransactItems.some(
    (item) =>
      isRecord(item) &&
      (isRecord(item.ConditionCheck) ||
        Object.values(item).some(
          (action) => isRecord(action) && typeof action.ConditionExpression === 'string',
        )),
  );
}

/** Read and write units of a response's ConsumedCapacity (one object, or one per table). */
function unitsOf(output: unknown, kind: DynamoCallKind): { read: number; write: number } {
  const consumed = isRecord(output) ? output.ConsumedCapacity : undefined;
  const entries: unknown[] = Array.isArray(consumed) ? consumed : consumed === undefined ? [] : [consumed];
  const units = { read: 0, write: 0 };
  for (const entry of entries) {
    if (!isRecord(entry)) continue;
    const { ReadCapacityUnits: read, WriteCapacityUnits: write, CapacityUnits: total } = entry;
    if (typeof read === 'number' || typeof write === 'number') {
      units.read += typeof read === 'number' ? read : 0;
      units.write += typeof write === 'number' ? write : 0;
    } else if (typeof total === 'number') {
      // TOTAL alone does not split them: the operation's kind says which units they are.
      if (kind === 'write') units.write += total;
      else units.read += total;
    }
  }
  return units;
}

const MIDDLEWARE_NAME = 'dynamoCallCounter';

export function makeCallCounter(options: CallCounterOptions = {}): DynamoCallCounter {
  let rows = new Map<string, DynamoCallCount>();
  let inFlight = 0;
  let peakInFlight = 0;

  const rowFor = (label: string, command: string, table: string): DynamoCallCount => {
    const key = `${label}\u0000${table}\u0000${command}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        label,
        command,
        table,
        kind: kindOf(command),
        calls: 0,
        itemWrites: 0,
        conditional: 0,
        failed: 0,
        readUnits: 0,
        writeUnits: 0,
      };
      rows.set(key, row);
    }
    return row;
  };

  const middleware: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> =
    (next: InitializeHandler<ServiceInputTypes, ServiceOutputTypes>, context) =>
    async (args: InitializeHandlerArguments<ServiceInputTypes>) => {
      const command = operationName(context.commandName);
      const input: Input = { ...args.input };
      const table = tablesOf(input);
      const row = rowFor(options.classify?.({ operation: command, table, input }) ?? '', command, table);
      row.calls += 1;
      if (row.kind === 'write' && isConditional(input)) row.conditional += 1;
      const ask =
        options.consumedCapacity && row.kind !== 'other' && input.ReturnConsumedCapacity === undefined;
      inFlight += 1;
      peakInFlight = Math.max(peakInFlight, inFlight);
      try {
        const result = await next(
          ask ? { ...args, input: { ...args.input, ReturnConsumedCapacity: 'TOTAL' } } : args,
        );
        row.itemWrites += itemWritesOf(command, input) - unprocessedOf(result.output);
        const units = unitsOf(result.output, row.kind);
        row.readUnits += units.read;
        row.writeUnits += units.write;
        return result;
      } catch (error) {
        row.failed += 1;
        throw error;
      } finally {
        inFlight -= 1;
      }
    };

  return {
    attach(client) {
      client.middlewareStack.add(middleware, { step: 'initialize', name: MIDDLEWARE_NAME, override: true });
    },
    snapshot() {
      const byCommand = [...rows.values()]
        .map((row) => ({ ...row }))
        .sort(
          (a, b) =>
            a.label.localeCompare(b.label) ||
            a.table.localeCompare(b.table) ||
            a.command.localeCompare(b.command),
        );
      return { byCommand, totals: totalsOf(byCommand), peakInFlight, inFlight };
    },
    reset() {
      rows = new Map();
      peakInFlight = inFlight;
    },
  };
}

/** The totals of some rows of a snapshot. */
export function totalsOf(rows: readonly DynamoCallCount[]): DynamoCallTotals {
  const totals: DynamoCallTotals = {
    calls: 0,
    reads: 0,
    writes: 0,
    itemWrites: 0,
    conditionalWrites: 0,
    failed: 0,
    readUnits: 0,
    writeUnits: 0,
  };
  for (const row of rows) {
    totals.calls += row.calls;
    if (row.kind === 'read') totals.reads += row.calls;
    if (row.kind === 'write') totals.writes += row.calls;
    totals.itemWrites += row.itemWrites;
    totals.conditionalWrites += row.conditional;
    totals.failed += row.failed;
    totals.readUnits += row.readUnits;
    totals.writeUnits += row.writeUnits;
  }
  return totals;
}
