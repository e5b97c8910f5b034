/**
 * Tracing, for the functions that want it (shared/runtime/with-tracing.ts registers Powertools
 * Tracer there); everywhere else, nothing. This file imports no tracer: the X-Ray SDK it would
 * bring (aws-xray-sdk-core with semver and cls-hooked, about 117 KiB and its import time) is in
 * the bundle of a function only if its entry imports with-tracing.ts. The request-path functions
 * (the operations, MCP, the dashboard, the fallback) do not: Lambda's active tracing records
 * their invocation, and their trace id reaches the worker with the post (docs/operating.md "Traces").
 */

/** What the service asks of a tracer: AWS clients whose calls are subsegments, and subsegments of its own. */
export interface Tracing {
  captureAwsClient<T>(client: T): T;
  /** `fn` in a subsegment `name`, with these annotations (searchable in X-Ray), closed when it settles. */
  inSubsegment<T>(
    name: string,
    annotations: Readonly<Record<string, string>>,
    fn: () => Promise<T>,
  ): Promise<T>;
}

let registered: Tracing | undefined;

/** Called once, before the function's dependencies are made (with-tracing.ts). */
export function registerTracing(tracing: Tracing | undefined): void {
  registered = tracing;
}

/**
 * Powertools traces only in Lambda (AWS_EXECUTION_ENV set) and unless POWERTOOLS_TRACE_ENABLED is
 * "false"; elsewhere its tracer is off but importing it still loads the X-Ray SDK, whose async
 * hooks tax every promise of the process (6.8 % of the local host's CPU under bench/throughput.ts).
 * So the local host and the tests never load it.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  return (
    (env.AWS_EXECUTION_ENV ?? '') !== '' && (env.POWERTOOLS_TRACE_ENABLED ?? '').toLowerCase() !== 'false'
  );
}

/** An AWS SDK client whose every call is a subsegment of the invocation's trace, where tracing is registered. */
export function traced<T>(client: T): T {
  return registered ? registered.captureAwsClient(client) : client;
}

/** `fn` as a subsegment of its own where tracing is registered (a network call); just `fn` elsewhere. */
export function inSubsegment<T>(
  name: string,
  annotations: Readonly<Record<string, string>>,
  fn: () => Promise<T>,
): Promise<T> {
  return registered ? registered.inSubsegment(name, annotations, fn) : fn();
}
