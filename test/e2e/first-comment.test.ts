import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface CommentBody {
  status: string;
  attempts: number;
  platformCommentId: string | null;
  platformCommentUrl: string | null;
  error: { code: string; retryable: boolean } | null;
}
interface PostBody {
  id: string;
  status: string;
  platformPostId: string | null;
  firstComment: CommentBody | null;
}

/**
 * A post's first comment through the local host (API, outbox, queue, worker, the sandbox network,
 * DynamoDB Local): made once the post is published, its failure leaving the post published, and a
 * call that answered too late looked up rather than made again.
 */
describe('first comment on the local host, through the sandbox network', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;

  const create = async (body: unknown) => {
    const response = await posts.create(body);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const read = async (id: string) => (await (await posts.get(id)).json()) as PostBody;
  const commentSettled = (id: string) =>
    eventually(
      async () => {
        const post = await read(id);
        const status = post.firstComment?.status;
        return status && ['published', 'failed', 'uncertain'].includes(status) ? post : undefined;
      },
      { timeoutMs: 20_000, what: `the first comment of ${id} to settle` },
    );
  const eventsOf = (id: string, count: number) =>
    eventually(async () => {
      const mine = host.delivery?.events().filter((event) => event.data.postId === id) ?? [];
      return mine.length >= count ? mine : undefined;
    });

  beforeAll(async () => {
    host = await startTestHost({
      delivery: {
        sandboxLatencyMs: { min: 5, max: 20 },
        leaseMs: 1000,
        connectorTimeoutMs: 1500,
        lookupTimeoutMs: 1000,
      },
    });
    tenant = await host.admin.bootstrap({ name: 'First comments' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  it('is made on the published post, and says so in the post and its event', async () => {
    // Act
    const id = await create(
      tweet(tenant, { content: 'Launch day', firstComment: { text: 'Details below' } }),
    );
    const post = await commentSettled(id);

    // Assess
    expect(post.status).toBe('published');
    expect(post.firstComment).toMatchObject({ status: 'published', attempts: 1, error: null });
    expect(post.firstComment?.platformCommentId).toMatch(/^\d+$/);
    expect(post.firstComment?.platformCommentId).not.toBe(post.platformPostId);
    const events = await eventsOf(id, 3);
    expect(events.map((event) => event.type)).toEqual([
      'post.queued',
      'post.published',
      'post.first_comment_published',
    ]);
    expect(events[2]?.data).toMatchObject({
      platformPostId: post.platformPostId,
      firstComment: { status: 'published', platformCommentId: post.firstComment?.platformCommentId },
    });
  });

  it('refused by the network: the comment fails, the post stays published', async () => {
    const id = await create(
      tweet(tenant, { content: 'Still here', firstComment: { text: 'Refused [sandbox:rejected]' } }),
    );

    const post = await commentSettled(id);

    expect(post.status).toBe('published');
    expect(post.firstComment).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'PLATFORM_REJECTED', retryable: false },
    });
    const events = await eventsOf(id, 3);
    expect(events.map((event) => event.type)).toContain('post.first_comment_failed');
  });

  it('a comment whose answer came after the time-out is looked up and kept: one comment, published', async () => {
    // The sandbox makes the comment, then answers 3 s later: past the 1.5 s time-out.
    const id = await create(
      tweet(tenant, { content: 'Slow network', firstComment: { text: 'Late answer [sandbox:slow:3000]' } }),
    );

    const post = await commentSettled(id);

    expect(post.firstComment).toMatchObject({ status: 'published', attempts: 1 });
    const lines = host.logs.filter((line) => line.fields.postId === id);
    expect(lines.some((line) => line.message === 'looked the first comment up on the network')).toBe(true);
  });

  it('is refused before anything is created where the network takes none', async () => {
    const response = await posts.create({
      platform: 'tiktok',
      accountId: tenant.accounts.tiktok,
      status: 'publish',
      postType: 'video',
      content: 'A clip',
      media: [{ url: 'https://cdn.example.com/clip.mp4', type: 'video' }],
      platformOptions: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
      firstComment: { text: 'Not on TikTok' },
    });

    const refused = await expectEnvelope(response, 422, 'VALIDATION_FAILED');
    expect(refused.errors).toContainEqual(
      expect.objectContaining({ field: 'firstComment', code: 'FIRST_COMMENT_NOT_SUPPORTED' }),
    );
  });
});
