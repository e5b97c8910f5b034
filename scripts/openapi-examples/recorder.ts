import type { Operation } from '../../shared/http/operation.js';
import { operationById } from '../../shared/operations/registry.js';

/** What one operation's calls left to publish: the success request and a body per status. */
export interface RecordedOperation {
  request?: unknown;
  responses: Record<string, unknown>;
  otherErrors?: Record<string, unknown[]>;
}

export interface CallOptions {
  /** Path parameters by their name in the operation's path (`workspace_id`…). */
  params?: Record<string, string>;
  query?: string;
  /** A JSON body (serialised here), or a raw string sent as it is. */
  body?: unknown;
  /** The bearer key; `null` sends none. The recorder's default key otherwise. */
  apiKey?: string | null;
  headers?: Record<string, string>;
}

export interface RecordOptions extends CallOptions {
  /** The status the call must answer; anything else stops the recording. */
  expect: number;
  /** For an error: the `error` code the body must carry. */
  code?: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** The path of an operation with its parameters filled in; every `{name}` must be given. */
export function pathOf(operation: Operation, params: Record<string, string>): string {
  return operation.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.id}: no value for {${name}}.`);
    return encodeURIComponent(value);
  });
}

/**
 * Calls the operations of the registry over real HTTP, with each operation's own method and path,
 * and keeps what they answered. A recorded call that answers another status or error code than
 * the scenario expects stops the recording: an example is only ever what the service really said.
 * The clock moves one second after each call, so timestamps and ids are the same on every run.
 */
export function makeRecorder(options: { baseUrl: string; apiKey: string; advanceClock: () => void }) {
  const recorded = new Map<string, RecordedOperation>();

  async function send(operationId: string, call: CallOptions = {}): Promise<Answer> {
    const operation = operationById(operationId);
    const apiKey = call.apiKey === undefined ? options.apiKey : call.apiKey;
    const isRaw = typeof call.body === 'string';
    const headers: Record<string, string> = {
      ...(apiKey !== null && { Authorization: `Bearer ${apiKey}` }),
      ...(call.body !== undefined && !isRaw && { 'Content-Type': 'application/json' }),
      ...call.headers,
    };
    const url = `${options.baseUrl}${pathOf(operation, call.params ?? {})}${call.query ?? ''}`;
    const response = await fetch(url, {
      method: operation.method,
      headers,
      ...(call.body !== undefined && { body: isRaw ? (call.body as string) : JSON.stringify(call.body) }),
      redirect: 'manual',
    });
    const text = await response.text();
    options.advanceClock();
    const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
    return { status: response.status, body: text === '' ? undefined : isJson ? JSON.parse(text) : text };
  }

  function entryOf(operationId: string): RecordedOperation {
    let entry = recorded.get(operationId);
    if (!entry) {
      entry = { responses: {} };
      recorded.set(operationId, entry);
    }
    return entry;
  }

  async function record(operationId: string, call: RecordOptions): Promise<Answer> {
    const answer = await send(operationId, call);
    const codeOf = (body: unknown) =>
      typeof body === 'object' && body !== null && 'error' in body ? String(body.error) : undefined;
    if (answer.status !== call.expect || (call.code !== undefined && codeOf(answer.body) !== call.code)) {
      throw new Error(
        `${operationId}: expected ${call.expect} ${call.code ?? ''}, got ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
    const entry = entryOf(operationId);
    const status = String(answer.status);
    const operation = operationById(operationId);
    const isFirst = !(status in entry.responses);
    if (isFirst && answer.status === operation.successStatus && call.body !== undefined)
      entry.request = call.body;
    if (answer.body === undefined) return answer;
    if (isFirst) entry.responses[status] = answer.body;
    else {
      // A second error code under the same status (422 VALIDATION_FAILED, then idempotency_key_reused).
      const known = [entry.responses[status], ...(entry.otherErrors?.[status] ?? [])].map(codeOf);
      if (known.includes(codeOf(answer.body)))
        throw new Error(`${operationId}: ${status} ${codeOf(answer.body)} is recorded twice.`);
      const others = entry.otherErrors ?? {};
      others[status] = [...(others[status] ?? []), answer.body];
      entry.otherErrors = others;
    }
    return answer;
  }

  /** record() for a success, answering its JSON body. */
  async function succeed<T = Record<string, unknown>>(
    operationId: string,
    call: CallOptions = {},
  ): Promise<T> {
    const expect = operationById(operationId).successStatus;
    return (await record(operationId, { ...call, expect })).body as T;
  }

  return { send, record, succeed, recorded };
}

export type Recorder = ReturnType<typeof makeRecorder>;
