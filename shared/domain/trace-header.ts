/**
 * X-Ray's trace header (`Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1`),
 * as the service carries it from an API request to the delivery worker (docs/operating.md
 * "Traces"). One may come from a caller, so it is read strictly: a Root of X-Ray's shape, an
 * optional Parent and Sampled, nothing else kept, and rebuilt from those parts, so what travels
 * on is always a header X-Ray and SQS accept and never the caller's own text. It is not a secret.
 */

const ROOT = /^1-[0-9a-f]{8}-[0-9a-f]{24}$/;
const PARENT = /^[0-9a-f]{16}$/;
const SAMPLED = /^[01]$/;
/** Where Lambda puts the invocation's trace header (as the AWS SDK reads it for its own calls). */
const LAMBDA_TRACE_VARIABLE = '_X_AMZN_TRACE_ID';
/** Far above a real header (about 80 characters, a Lineage included): longer ones are not read at all. */
const MAX_LENGTH = 256;

/** A well-formed trace header, rebuilt from its parts; undefined for anything else. */
export function parseTraceHeader(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return undefined;
  const fields = new Map<string, string>();
  for (const part of value.split(';')) {
    const equals = part.indexOf('=');
    if (equals <= 0) continue;
    const key = part.slice(0, equals).trim();
    if (fields.has(key)) return undefined;
    fields.set(key, part.slice(equals + 1).trim());
  }
  const root = fields.get('Root');
  if (!root || !ROOT.test(root)) return undefined;
  const parent = fields.get('Parent');
  const sampled = fields.get('Sampled');
  return [
    `Root=${root}`,
    ...(parent && PARENT.test(parent) ? [`Parent=${parent}`] : []),
    ...(sampled && SAMPLED.test(sampled) ? [`Sampled=${sampled}`] : []),
  ].join(';');
}

/** The trace id (the Root) of a header parseTraceHeader accepts: what X-Ray and the logs name a trace by. */
export function traceIdOf(header: string | undefined): string | undefined {
  const parsed = parseTraceHeader(header);
  return parsed?.split(';')[0]?.slice('Root='.length);
}

/**
 * The trace an API request belongs to. In Lambda, the invocation's own (`_X_AMZN_TRACE_ID`, as
 * Lambda's active tracing started or continued it: the one the request's log lines carry as
 * `xray_trace_id`); a caller's header is never taken there, so no caller can choose what X-Ray
 * samples or joins. Elsewhere (the local host), the request's `X-Amzn-Trace-Id` when well formed.
 */
export function requestTraceOf(
  requestHeader: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (env.AWS_LAMBDA_FUNCTION_NAME) return parseTraceHeader(env[LAMBDA_TRACE_VARIABLE]);
  return parseTraceHeader(requestHeader);
}
