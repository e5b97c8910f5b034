import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../../../test/support/test-host.js';
import { createClient, type SocialPublishingClient } from '../src/index.js';

/** A PNG's signature and some bytes: storage checks type and size, not pixels. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new Array<number>(60).fill(7)]);

/**
 * The whole flow through the client against the local host (HTTP server, DynamoDB Local, s3rver,
 * the delivery pipeline and the sandbox network): create and poll, schedule, upload and post.
 */
describe('the client against the local host', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let client: SocialPublishingClient;
  const wait = { timeoutMs: 20_000, intervalMs: 100 };

  beforeAll(async () => {
    host = await startTestHost({ delivery: { sandboxLatencyMs: { min: 0, max: 5 } } });
    tenant = await host.admin.bootstrap({ name: 'Client flow' });
    client = createClient({ baseUrl: host.baseUrl, apiKey: tenant.apiKey });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('creates a post and polls it to published', async () => {
    const created = await client.createPost(tenant.workspaceId, {
      platform: 'twitter',
      accountId: tenant.accounts.twitter,
      status: 'publish',
      postType: 'text',
      content: 'Hello from the typed client',
    });
    expect(created).toMatchObject({ status: 'queued', platform: 'twitter', postType: 'text' });
    expect(created.id).toMatch(/^pst_/);

    const post = await client.waitForPost(tenant.workspaceId, created.id, wait);
    expect(post).toMatchObject({
      id: created.id,
      status: 'published',
      content: 'Hello from the typed client',
    });
    expect(post.platformPostUrl).toBe(`https://x.com/sandbox_short/status/${post.platformPostId}`);
  });

  it('schedules a post that is published at its time, not before', async () => {
    // Any offset is accepted; the service answers UTC.
    const at = new Date(Date.now() + 2_000);
    const created = await client.schedulePost(
      tenant.workspaceId,
      { platform: 'linkedin', accountId: tenant.accounts.linkedin, postType: 'text', content: 'On time' },
      at,
    );
    expect(created.status).toBe('scheduled');
    const scheduled = await client.getPost(tenant.workspaceId, created.id);
    expect(scheduled.scheduledAt).toBe(at.toISOString());

    const post = await client.waitForPost(tenant.workspaceId, created.id, wait);
    expect(post.status).toBe('published');
    expect(Date.parse(post.publishedAt ?? '')).toBeGreaterThanOrEqual(at.getTime());
  });

  it('moves a scheduled post with reschedulePost', async () => {
    const created = await client.schedulePost(
      tenant.workspaceId,
      {
        platform: 'twitter',
        accountId: tenant.accounts.twitter,
        postType: 'text',
        content: 'Later, then sooner',
      },
      new Date(Date.now() + 3_600_000),
    );
    const soon = new Date(Date.now() + 1_000);
    const moved = await client.reschedulePost(tenant.workspaceId, created.id, soon);
    expect(moved).toMatchObject({ status: 'scheduled', scheduledAt: soon.toISOString() });
    expect((await client.waitForPost(tenant.workspaceId, created.id, wait)).status).toBe('published');
  });

  it('uploads media through the presigned URL and publishes a post with it', async () => {
    const media = await client.uploadMedia(tenant.workspaceId, {
      filename: 'cat.png',
      mimeType: 'image/png',
      bytes: PNG,
    });
    expect(media).toMatchObject({
      status: 'uploaded',
      filename: 'cat.png',
      mimeType: 'image/png',
      sizeBytes: PNG.byteLength,
    });

    const created = await client.createPost(tenant.workspaceId, {
      platform: 'twitter',
      accountId: tenant.accounts.twitter,
      status: 'publish',
      postType: 'image',
      content: 'A cat',
      media: [{ id: media.mediaId, alt: 'A cat' }],
    });
    const post = await client.waitForPost(tenant.workspaceId, created.id, wait);
    expect(post.status).toBe('published');
    expect(post.media).toEqual([{ id: media.mediaId, alt: 'A cat' }]);
  });

  it('replays a creation repeated with the same Idempotency-Key: one post', async () => {
    const body = {
      platform: 'twitter',
      accountId: tenant.accounts.twitter,
      status: 'draft',
      postType: 'text',
      content: 'Once',
    } as const;
    const first = await client.createPost(tenant.workspaceId, body, { idempotencyKey: 'order-42' });
    const again = await client.createPost(tenant.workspaceId, body, { idempotencyKey: 'order-42' });
    expect(again).toEqual(first);
  });
});
