import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../../shared/adapters/dynamodb/client.js';
import { limitFor, windowAt } from '../../../shared/domain/rate-limit-policy.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../../../test/support/test-host.js';
import {
  ApiError,
  type CreatePostBody,
  createClient,
  type ErrorCodeOf,
  type SocialPublishingClient,
} from '../src/index.js';

// 20 s into a minute (and in the future, where DynamoDB Local's TTL sweep never reaches the counters).
const START = Date.UTC(2099, 0, 1, 12, 0, 20);
const UNKNOWN_POST = 'pst_01JD000000000000000000NONE';

/** Calls `call` and answers the ApiError it throws (a test failure when it does not throw one). */
async function apiError(call: Promise<unknown>): Promise<ApiError> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ApiError)) throw new Error(`Expected an ApiError, got ${String(outcome)}`);
  return outcome;
}

/** Each error a client meets, from the local host, typed: status, code and the envelope's members. */
describe('errors through the client', () => {
  const clock = fixedClock(START);
  let host: TestHost;
  let tenant: BootstrapResult;
  let client: SocialPublishingClient;
  const tweet = (content: string): CreatePostBody => ({
    platform: 'twitter',
    accountId: tenant.accounts.twitter,
    status: 'draft',
    postType: 'text',
    content,
  });

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Client errors' });
    client = createClient({ baseUrl: host.baseUrl, apiKey: tenant.apiKey });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('400 INVALID_REQUEST names the malformed parameter in details', async () => {
    const error = await apiError(client.getPost(tenant.workspaceId, 'not-a-post-id'));
    expect(error).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    expect(Object.keys(error.details ?? {})).toEqual(['post_id']);
    expect(error.requestId).toBeTruthy();
  });

  it('400 INVALID_REQUEST: details name the field meant by an unknown one, and say "Required" for one left out', async () => {
    // A variable, not a literal: the type allows the stray field as a caller's data would carry it.
    const misspelt = { ...tweet('Hello'), contnet: 'Hello' };
    const unknownField = await apiError(client.createPost(tenant.workspaceId, misspelt));
    expect(unknownField).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    expect(unknownField.details).toEqual({ body: ['Unknown field `contnet`; did you mean `content`?'] });

    const { content: _content, ...withoutContent } = tweet('Hello');
    const missing = await apiError(client.createPost(tenant.workspaceId, withoutContent as CreatePostBody));
    expect(missing.details).toEqual({ content: ['Required'] });
    expect(missing.body.details).toEqual(missing.details);
  });

  it('404 not_found for an account the workspace does not have, naming it (a draft too)', async () => {
    const unknownAccount = 'acc_01JD0000000000000000NONE';
    const error = await apiError(
      client.createPost(tenant.workspaceId, { ...tweet('Nowhere'), accountId: unknownAccount }),
    );
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect(error.message).toBe(`No account ${unknownAccount} in this workspace.`);
    expect(error.errors).toBeUndefined();
  });

  it('401 unauthorized for a key the service does not know', async () => {
    const stranger = createClient({ baseUrl: host.baseUrl, apiKey: `smcp_${'0'.repeat(64)}` });
    const error = await apiError(stranger.getPost(tenant.workspaceId, UNKNOWN_POST));
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('403 policy_violation carries facet and reason', async () => {
    const policed = await host.admin.bootstrap({ name: 'Client policed' });
    await host.admin.setPolicies(policed.tenantId, policed.workspaceId, {
      blockedTerms: ['guaranteed returns'],
    });
    const policedClient = createClient({ baseUrl: host.baseUrl, apiKey: policed.apiKey });
    const error = await apiError(
      policedClient.createPost(policed.workspaceId, {
        platform: 'twitter',
        accountId: policed.accounts.twitter,
        status: 'publish',
        postType: 'text',
        content: 'Guaranteed returns!',
      }),
    );
    expect(error).toMatchObject({ status: 403, code: 'policy_violation', facet: 'content' });
    expect(error.reason).toMatch(/guaranteed returns/i);
  });

  it('404 not_found for a well-formed id that does not exist', async () => {
    const error = await apiError(client.getPost(tenant.workspaceId, UNKNOWN_POST));
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('409 conflict when the post can no longer change', async () => {
    const created = await client.createPost(tenant.workspaceId, tweet('Soon cancelled'));
    const cancelled = await client.api.DELETE('/v1/workspaces/{workspace_id}/posts/{post_id}', {
      params: { path: { workspace_id: tenant.workspaceId, post_id: created.id } },
    });
    expect(cancelled.response.ok).toBe(true);
    const error = await apiError(
      client.reschedulePost(tenant.workspaceId, created.id, new Date(START + 3_600_000)),
    );
    expect(error).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('409 upload_incomplete when confirming before the upload', async () => {
    const issued = await client.api.POST('/v1/workspaces/{workspace_id}/media/upload-url', {
      params: { path: { workspace_id: tenant.workspaceId } },
      body: { filename: 'late.png', mimeType: 'image/png', sizeBytes: 64 },
    });
    const mediaId = issued.data?.mediaId ?? '';
    const confirmed = await client.api.POST('/v1/workspaces/{workspace_id}/media/{media_id}/confirm', {
      params: { path: { workspace_id: tenant.workspaceId, media_id: mediaId } },
    });
    expect(confirmed.response.status).toBe(409);
    // The typed error body: `error` is the union of the codes this operation may answer.
    const code: ErrorCodeOf<'confirmMedia'> | undefined = confirmed.error?.error;
    expect(code).toBe('upload_incomplete');
  });

  it('422 VALIDATION_FAILED lists every broken rule in errors[]', async () => {
    // Drafts are checked when they leave draft; a post to publish now is checked on creation.
    const error = await apiError(
      client.createPost(tenant.workspaceId, { ...tweet('x'.repeat(281)), status: 'publish' }),
    );
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(error.errors).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 280 }),
    ]);
  });

  it('422 idempotency_key_reused for one key with two bodies', async () => {
    await client.createPost(tenant.workspaceId, tweet('First body'), { idempotencyKey: 'client-reuse' });
    const error = await apiError(
      client.createPost(tenant.workspaceId, tweet('Second body'), { idempotencyKey: 'client-reuse' }),
    );
    expect(error).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
  });

  it('429 rate_limited: the client waits Retry-After, then the retry goes through', async () => {
    const limited = await host.admin.bootstrap({ name: 'Client limited' });
    const db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
    // As if the tenant had already created its whole minute's worth of posts.
    await db.send(
      new UpdateCommand({
        TableName: host.config.tables.rateLimits,
        Key: { pk: `${limited.tenantId}#posts_create#${windowAt(clock.now()).startMs}` },
        UpdateExpression: 'SET #count = :count',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':count': limitFor('posts_create', 'free') },
      }),
    );
    db.destroy();
    const body: CreatePostBody = {
      platform: 'twitter',
      accountId: limited.accounts.twitter,
      status: 'draft',
      postType: 'text',
      content: 'After the wait',
    };

    const impatient = createClient({
      baseUrl: host.baseUrl,
      apiKey: limited.apiKey,
      retry: { maxRetries: 0 },
    });
    const error = await apiError(impatient.createPost(limited.workspaceId, body));
    // 20 s into the minute: 40 s to wait.
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 40 });

    const sleeps: number[] = [];
    // The client's sleep moves the service's clock: waiting takes no wall-clock time.
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      clock.advance(ms);
    };
    const patient = createClient({ baseUrl: host.baseUrl, apiKey: limited.apiKey, timing: { sleep } });
    const created = await patient.createPost(limited.workspaceId, body);
    expect(created.status).toBe('draft');
    // Retry-After (40 s) is longer than the first backoff (500–1000 ms): it wins.
    expect(sleeps).toEqual([40_000]);
  });
});
