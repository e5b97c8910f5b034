import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoSandboxLedger } from '../../shared/adapters/dynamodb/sandbox-ledger.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { eventually } from '../support/eventually.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { movieFile, webmFile } from '../support/video-files.js';

interface MediaBody {
  mediaId: string;
  status: string;
  durationSeconds?: number;
  width?: number;
  height?: number;
}

/**
 * Issue 24, item 7: a video's duration is read when its upload is confirmed (through s3rver's
 * ranged GETs), shown on the media, and checked against the network's limit when a post names it
 * (422) and again before any upload at publish time (the post fails; the network is not called).
 */
describe('video durations over HTTP', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  const json = { 'Content-Type': 'application/json' };
  const call = (path: string, init: RequestInit = {}) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}${path}`, { ...init, apiKey: tenant.apiKey });
  const post = (path: string, body: unknown) =>
    call(path, { method: 'POST', headers: json, body: JSON.stringify(body) });

  /** Asks for an upload URL; `put` sends the bytes with exactly the signed headers. */
  async function startUpload(filename: string, mimeType: string, file: Buffer) {
    const answer = await post('/media/upload-url', { filename, mimeType, sizeBytes: file.length });
    expect(answer.status).toBe(201);
    const issued = (await answer.json()) as {
      mediaId: string;
      uploadUrl: string;
      headers: Record<string, string>;
    };
    return {
      mediaId: issued.mediaId,
      put: async () => {
        const stored = await fetch(issued.uploadUrl, { method: 'PUT', headers: issued.headers, body: file });
        expect(stored.status).toBe(200);
      },
    };
  }

  const story = (mediaId: string, extra: Record<string, unknown> = {}) => ({
    accountId: tenant.accounts.instagram,
    platform: 'instagram',
    postType: 'story',
    content: '',
    media: [{ id: mediaId }],
    ...extra,
  });

  beforeAll(async () => {
    host = await startTestHost({ delivery: { sandboxLatencyMs: { min: 0, max: 5 } } });
    tenant = await host.admin.bootstrap({ name: 'Video durations' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('confirm reads an MP4 video’s duration and size; the media shows them', async () => {
    // Prepare
    const upload = await startUpload(
      'clip.mp4',
      'video/mp4',
      movieFile({ durationSeconds: 75, width: 1080, height: 1920 }),
    );
    await upload.put();

    // Act
    const confirmed = await post(`/media/${upload.mediaId}/confirm`, {});

    // Assess
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({
      status: 'uploaded',
      durationSeconds: 75,
      width: 1080,
      height: 1920,
    });
  });

  it('a WebM upload confirmed by the bucket notification carries its duration too', async () => {
    const upload = await startUpload(
      'clip.webm',
      'video/webm',
      webmFile({ durationSeconds: 12, width: 640, height: 360 }),
    );
    await upload.put();

    const media = await eventually(
      async () => {
        const read = (await (await call(`/media/${upload.mediaId}`)).json()) as MediaBody;
        return read.status === 'uploaded' ? read : undefined;
      },
      { what: 'the notification confirming the upload' },
    );

    expect(media).toMatchObject({ durationSeconds: 12, width: 640, height: 360 });
  });

  it('a file whose duration cannot be read is uploaded all the same, its duration unknown', async () => {
    const upload = await startUpload(
      'odd.mov',
      'video/quicktime',
      Buffer.from('not a QuickTime movie at all'.repeat(8)),
    );
    await upload.put();

    const confirmed = await post(`/media/${upload.mediaId}/confirm`, {});

    expect(confirmed.status).toBe(200);
    const body = (await confirmed.json()) as MediaBody;
    expect(body.status).toBe('uploaded');
    expect(body).not.toHaveProperty('durationSeconds');
  });

  it('a post naming a video over the network’s limit is 422 naming the rule, on create and on validate', async () => {
    // Prepare: 75 s, an Instagram story video takes at most 60 s
    const upload = await startUpload('long.mp4', 'video/mp4', movieFile({ durationSeconds: 75 }));
    await upload.put();
    await post(`/media/${upload.mediaId}/confirm`, {});

    // Act
    const created = await post('/posts', story(upload.mediaId, { status: 'publish' }));
    const validated = await post('/posts/validate', story(upload.mediaId, { status: 'publish' }));

    // Assess
    const expected = { field: 'media[0]', code: 'VIDEO_TOO_LONG', limit: 60 };
    const refusal = await expectEnvelope(created, 422, 'VALIDATION_FAILED');
    expect(refusal.errors).toEqual([expect.objectContaining(expected)]);
    expect(validated.status).toBe(200);
    expect(await validated.json()).toMatchObject({
      valid: false,
      errors: [expect.objectContaining(expected)],
    });
  });

  it('a post created before its video’s duration was known fails at publish, the network never called', async () => {
    // Prepare: a scheduled story names a video still pending (allowed), whose file then arrives too long
    const upload = await startUpload('late.mp4', 'video/mp4', movieFile({ durationSeconds: 90 }));
    const scheduledAt = new Date(Date.now() + 3000).toISOString();
    const created = await post('/posts', story(upload.mediaId, { status: 'scheduled', scheduledAt }));
    expect(created.status).toBe(201);
    const { id: postId } = (await created.json()) as { id: string };
    await upload.put();

    // Act: the schedule comes due
    const failed = await eventually(
      async () => {
        const read = (await (await call(`/posts/${postId}`)).json()) as { status: string };
        return read.status === 'failed' ? read : undefined;
      },
      { what: 'the post failing at publish', timeoutMs: 20_000 },
    );

    // Assess
    expect(failed).toMatchObject({
      status: 'failed',
      error: { origin: 'service', code: 'VIDEO_TOO_LONG', retryable: false },
    });
    const ledger = makeDynamoSandboxLedger(
      makeDocumentClient(makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint })),
      host.config.tables.main,
    );
    expect(await ledger.find(postId)).toBeUndefined();
  });
});
