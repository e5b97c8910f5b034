import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, backoffDelayMs, createClient, DEFAULT_RETRY_POLICY, NetworkError } from '../src/index.js';
import { recordingTiming, startStubServer } from './support/stub-server.js';

const WORKSPACE = 'wks_01STUB';
const POST_BODY = {
  platform: 'twitter',
  accountId: 'acc_01STUB',
  status: 'publish',
  postType: 'text',
  content: 'Retried, once',
} as const;
const CREATED = {
  id: 'pst_01STUB',
  status: 'queued',
  platform: 'twitter',
  postType: 'text',
  createdAt: '2030-01-01T00:00:00.000Z',
};
const unavailable = { status: 503, body: { error: 'service_unavailable', message: 'Try later.' } };

/** The retry policy against a loopback stub: what the server sees, and how long the client waited. */
describe('retry with backoff', () => {
  let stub: Awaited<ReturnType<typeof startStubServer>>;
  let clock: ReturnType<typeof recordingTiming>;
  const client = (retry = {}) =>
    createClient({ baseUrl: stub.baseUrl, apiKey: 'smcp_test', retry, timing: clock.timing });

  beforeAll(async () => {
    stub = await startStubServer();
  });
  afterAll(async () => {
    await stub.stop();
  });
  beforeEach(() => {
    clock = recordingTiming(0.5);
  });

  it('computes min(cap, base * 2^attempt + jitter) with base 500 ms and cap 30 s', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6].map((attempt) =>
      backoffDelayMs(attempt, DEFAULT_RETRY_POLICY, () => 0.5),
    );
    expect(delays).toEqual([750, 1250, 2250, 4250, 8250, 16250, 30000]);
    expect(backoffDelayMs(0, DEFAULT_RETRY_POLICY, () => 0)).toBe(500);
  });

  it('retries a creation after 503 with the same Idempotency-Key and body, waiting the backoff', async () => {
    stub.answer(unavailable, unavailable, { status: 201, body: CREATED });
    const created = await client().createPost(WORKSPACE, POST_BODY);
    expect(created.id).toBe('pst_01STUB');
    expect(stub.seen).toHaveLength(3);
    const keys = stub.seen.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(stub.seen.map((request) => request.body))).toEqual(new Set([JSON.stringify(POST_BODY)]));
    expect(stub.seen.every((request) => request.headers.authorization === 'Bearer smcp_test')).toBe(true);
    expect(clock.sleeps).toEqual([750, 1250]);
  });

  it('gives each logical creation its own key', async () => {
    stub.answer({ status: 201, body: CREATED }, { status: 201, body: CREATED });
    await client().createPost(WORKSPACE, POST_BODY);
    await client().createPost(WORKSPACE, POST_BODY);
    expect(stub.seen[0]?.headers['idempotency-key']).not.toBe(stub.seen[1]?.headers['idempotency-key']);
  });

  it('stops after 5 retries and throws the last answer as ApiError', async () => {
    stub.answer(...Array.from({ length: 6 }, () => unavailable), { status: 201, body: CREATED });
    const failure = await client()
      .createPost(WORKSPACE, POST_BODY)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 503, code: 'service_unavailable', requestId: 'req_6' });
    expect(stub.seen).toHaveLength(6);
    expect(clock.sleeps).toEqual([750, 1250, 2250, 4250, 8250]);
  });

  it('honours Retry-After on 429 when it is longer than the backoff', async () => {
    stub.answer(
      {
        status: 429,
        body: { error: 'rate_limited', message: 'Slow down.' },
        headers: { 'Retry-After': '7' },
      },
      { status: 201, body: CREATED },
    );
    await client().createPost(WORKSPACE, POST_BODY);
    expect(clock.sleeps).toEqual([7000]);
  });

  it('retries a request that timed out, with the same key, and reports time-outs when all do', async () => {
    stub.answer('hang', { status: 201, body: CREATED });
    await client({ attemptTimeoutMs: 100 }).createPost(WORKSPACE, POST_BODY);
    expect(stub.seen).toHaveLength(2);
    expect(stub.seen[0]?.headers['idempotency-key']).toBe(stub.seen[1]?.headers['idempotency-key']);
    expect(clock.sleeps).toEqual([750]);

    stub.answer('hang', 'hang');
    const failure = await client({ attemptTimeoutMs: 100, maxRetries: 1 })
      .getPost(WORKSPACE, 'pst_01STUB')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure).toMatchObject({ timedOut: true });
    expect(stub.seen).toHaveLength(2);
  });

  it('does not retry other 4xx answers', async () => {
    stub.answer(
      {
        status: 400,
        body: { error: 'INVALID_REQUEST', message: 'Bad.', details: { content: ['Required.'] } },
      },
      { status: 201, body: CREATED },
    );
    const failure = await client()
      .createPost(WORKSPACE, POST_BODY)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      status: 400,
      code: 'INVALID_REQUEST',
      details: { content: ['Required.'] },
    });
    expect(stub.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('retries a POST without an Idempotency-Key after 429 only, never after a 5xx', async () => {
    const upload = () =>
      client().api.POST('/v1/workspaces/{workspace_id}/media/upload-url', {
        params: { path: { workspace_id: WORKSPACE } },
        body: { filename: 'a.png', mimeType: 'image/png', sizeBytes: 10 },
      });
    stub.answer(unavailable, unavailable);
    expect((await upload()).response.status).toBe(503);
    expect(stub.seen).toHaveLength(1);

    stub.answer(
      {
        status: 429,
        body: { error: 'rate_limited', message: 'Slow down.' },
        headers: { 'Retry-After': '1' },
      },
      { status: 409, body: { error: 'conflict', message: 'Changed.' } },
    );
    expect((await upload()).response.status).toBe(409);
    expect(stub.seen).toHaveLength(2);
  });

  it('retries reads after 502 and 504, and not at all with maxRetries 0', async () => {
    const gateway = (status: number) => ({ status, body: { error: 'internal_error', message: 'Upstream.' } });
    stub.answer(gateway(502), gateway(504), gateway(500), {
      status: 200,
      body: { ...CREATED, status: 'queued' },
    });
    await client().api.GET('/v1/workspaces/{workspace_id}/posts/{post_id}', {
      params: { path: { workspace_id: WORKSPACE, post_id: 'pst_01STUB' } },
    });
    expect(stub.seen).toHaveLength(4);
    expect(clock.sleeps).toEqual([750, 1250, 2250]);

    stub.answer(gateway(502));
    const failure = await client({ maxRetries: 0 })
      .getPost(WORKSPACE, 'pst_01STUB')
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502 });
    expect(stub.seen).toHaveLength(1);
  });

  it('throws NetworkError without retrying when nothing answers at all', async () => {
    const nobody = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'smcp_test', timing: clock.timing });
    const failure = await nobody.getPost(WORKSPACE, 'pst_01STUB').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure).toMatchObject({ timedOut: false });
    expect(clock.sleeps).toEqual([]);
  });
});
