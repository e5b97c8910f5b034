import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** A request's params are checked against the SDK's own schema of its method, before the SDK reads it. */
const REQUEST_SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

/** What each field of a tool call must be, in words an agent's author can act on. */
const TOOLS_CALL_HINTS: Readonly<Record<string, string>> = {
  params: 'must be an object: { name, arguments }',
  'params.name': "must be the tool's name, a string (see tools/list)",
  'params.arguments': "must be an object of the tool's arguments by name, or absent",
};

/** The text of the one error that refuses every batch. */
export const BATCH_REFUSED =
  'Invalid Request: JSON-RPC batches are not accepted (MCP 2025-06-18 removed them). Send one message per HTTP request.';

/** The body the SDK's transport reads, or the answer given in its place. */
export type Screened = { kind: 'pass'; parsedBody?: unknown } | { kind: 'answer'; response: Response };

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

function describeIssue(method: string, issue: Issue): string {
  const field = issue.path.map(String).join('.');
  const hint = method === 'tools/call' ? TOOLS_CALL_HINTS[field] : undefined;
  // Otherwise zod's own words, without their "Invalid input: " preamble.
  return `${field} ${hint ?? issue.message.replace(/^Invalid input: /, '')}`;
}

function jsonRpcError(status: number, id: unknown, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** The id and method of a JSON-RPC request, or undefined for anything else. */
function asRequest(message: unknown): { id: string | number; method: string } | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { jsonrpc, id, method } = message as Record<string, unknown>;
  if (jsonrpc !== '2.0' || typeof method !== 'string') return undefined;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  return { id, method };
}

/**
 * Screens one POST's body before the SDK reads it, for what the SDK would answer badly:
 * - a batch (a JSON array) is refused whole: HTTP 400 and one JSON-RPC -32600 error. The protocol
 *   removed batching in 2025-06-18, and a batch of a hundred tools/list would answer 18 MB to one
 *   request (one rate-limit token or none);
 * - a request (initialize, ping, tools/list, tools/call) whose params do not fit its method is
 *   answered -32602 invalid params, naming each field wrong: the SDK would parse them first and
 *   answer -32603 internal error, its message the validator's output.
 * Anything else passes, parsed once (unparsable text passes as is: the SDK answers -32700).
 */
export function screenMessage(text: string | undefined): Screened {
  if (text === undefined) return { kind: 'pass' };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { kind: 'pass' };
  }
  if (Array.isArray(message)) {
    return { kind: 'answer', response: jsonRpcError(400, null, ErrorCode.InvalidRequest, BATCH_REFUSED) };
  }
  const request = asRequest(message);
  // Not a request (a notification, a response, not JSON-RPC at all): the SDK's to answer.
  if (!request) return { kind: 'pass', parsedBody: message };
  const { id, method } = request;
  const schema = REQUEST_SCHEMAS[method as keyof typeof REQUEST_SCHEMAS];
  const checked = schema?.safeParse(message);
  if (!checked || checked.success) return { kind: 'pass', parsedBody: message };
  const problems = checked.error.issues
    .slice(0, 3)
    .map((issue) => describeIssue(method, issue))
    .join('; ');
  return {
    kind: 'answer',
    response: jsonRpcError(200, id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${problems}.`),
  };
}
