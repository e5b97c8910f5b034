/** What bench/bundles.ts and its child (bench/cold-start-child.ts) say to each other. */

/** Replaced, in every environment variable of the child, by the stub's origin (`http://127.0.0.1:<port>`). */
export const STUB_ORIGIN_PLACEHOLDER = '__STUB_ORIGIN__';

/** What the parent asks for (JSON in the child's BENCH_JOB environment variable). */
export interface ColdStartJob {
  /** The bundle to import (an `index.mjs`). */
  bundle: string;
  /** The Lambda function name the context carries. */
  functionName: string;
  /** The first event handed to the handler. */
  event: unknown;
  /** Events handed to the same instance after the first, one at a time (a warm instance's next requests). */
  followUps?: unknown[];
}

/**
 * Items the stub's DynamoDB holds (marshalled, each with `pk` and `sk`), which GetItem and
 * BatchGetItem find by key, in the child's BENCH_DYNAMO_ITEMS environment variable (JSON).
 */
export const DYNAMO_ITEMS_VARIABLE = 'BENCH_DYNAMO_ITEMS';

/**
 * A folder for Node 22's compile cache, which the child enables just before it imports the bundle
 * (bench/compile-cache.ts); unset, no cache.
 */
export const COMPILE_CACHE_VARIABLE = 'BENCH_COMPILE_CACHE';

/** What the child reports back over IPC. */
export interface ColdStartResult {
  importMs: number;
  invokeMs: number;
  /** A short description of what the handler answered (status code, batch failures, …). */
  outcome: string;
  /** AWS API calls the stub served during the invocation, by name. */
  awsCalls: Record<string, number>;
  /** Each follow-up event's time and answer, in order. */
  followUps?: { ms: number; outcome: string }[];
}
