import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../../../../shared/domain/posts.js';
import type { CommentRequest, PublishProgress } from '../../../../shared/ports/connector.js';
import {
  anAccount,
  aRequest,
  type InstagramWorld,
  startWorld,
  storedMedia,
  USER,
  userToken,
} from './instagram-world.js';

const COMMENT_SCOPES = ['instagram_business_basic', 'instagram_business_manage_comments'];

/** A post published through the connector, as the worker hands it to the comment step. */
async function publishedPost(
  world: InstagramWorld,
  token: string,
): Promise<Post & { platformPostId: string }> {
  const request = aRequest(world, token, 'image', [storedMedia(world, 'image')]);
  const outcome = await world.network.connector.publish(request);
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return {
    ...request.post,
    platformPostId: outcome.platformPostId,
    platformPostUrl: outcome.platformPostUrl,
  };
}

function aComment(
  post: Post & { platformPostId: string },
  token: string,
  overrides: Partial<CommentRequest> = {},
): CommentRequest {
  return {
    post,
    account: anAccount(),
    credentials: { accessToken: token },
    comment: { text: 'Links and credits in the comments 👇', media: [] },
    attempt: 1,
    clientReference: `${post.postId}#comment`,
    signal: AbortSignal.timeout(5000),
    ...overrides,
  };
}

describe('Instagram first comment against the fake', () => {
  let world: InstagramWorld;
  afterEach(() => world.stop());

  it('comments on the new post as the same account: POST /{media-id}/comments with the message only', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);

    const outcome = await world.network.connector.publishComment?.(aComment(post, token));

    const [comment] = world.fake.control.comments();
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: comment?.id,
      platformPostUrl: post.platformPostUrl,
    });
    expect(comment).toMatchObject({
      mediaId: post.platformPostId,
      username: USER.username,
      text: 'Links and credits in the comments 👇',
    });
    const sent = world.fake.control.requests().find((seen) => seen.endpoint === 'comments.create');
    expect(sent?.path).toBe(`/v23.0/${post.platformPostId}/comments`);
  });

  it('a token without instagram_business_manage_comments: the comment fails for good (the post stays published), saying to reconnect', async () => {
    world = await startWorld();
    const token = userToken(world, {
      scopes: ['instagram_business_basic', 'instagram_business_content_publish'],
    });
    const post = await publishedPost(world, token);

    const outcome = await world.network.connector.publishComment?.(aComment(post, token));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_PERMISSION_DENIED',
      message: expect.stringContaining('instagram_business_manage_comments'),
    });
    expect(world.fake.control.comments()).toHaveLength(0);
    expect(world.fake.control.media()).toHaveLength(1);
  });

  it('comments turned off on the post: a failed comment, the post untouched', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    world.fake.control.disableComments(post.platformPostId);

    const outcome = await world.network.connector.publishComment?.(aComment(post, token));

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent' });
    expect(world.fake.control.comments()).toHaveLength(0);
    expect(world.fake.control.media()).toHaveLength(1);
  });

  it('refuses media in a comment without a call (Instagram comments are text only)', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    const before = world.fake.control.requests().length;

    const outcome = await world.network.connector.publishComment?.(
      aComment(post, token, { comment: { text: 'x', media: [storedMedia(world, 'image').delivered] } }),
    );

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent' });
    expect(world.fake.control.requests()).toHaveLength(before);
  });

  it('a time-out after Instagram made the comment: unknown, then findComment finds it, and there is one comment', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    // Someone else's comment with the same words is not ours.
    world.fake.control.addComment({
      mediaId: post.platformPostId,
      userId: '999',
      username: 'someone_else',
      text: 'Links and credits in the comments 👇',
      timestamp: Date.now(),
    });
    const since = new Date().toISOString();
    world.fake.control.failNext('comments.create', { kind: 'delayAfter', ms: 3000 });

    const outcome = await world.network.connector.publishComment?.(
      aComment(post, token, { signal: AbortSignal.timeout(800) }),
    );
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const progress = (outcome as { progress?: PublishProgress }).progress;
    expect(progress).toMatchObject({ sentAt: expect.any(String) });

    const ours = world.fake.control.comments().find((comment) => comment.username === USER.username);
    const found = await world.network.connector.findComment?.({
      post,
      account: anAccount(),
      credentials: { accessToken: token },
      comment: { text: 'Links and credits in the comments 👇' },
      clientReference: `${post.postId}#comment`,
      ...(progress && { progress }),
      since,
      signal: AbortSignal.timeout(5000),
    });

    expect(found).toEqual({ kind: 'found', platformPostId: ours?.id, platformPostUrl: post.platformPostUrl });
    expect(
      world.fake.control.comments().filter((comment) => comment.username === USER.username),
    ).toHaveLength(1);
  });

  it('findComment answers not_found when the post has no such comment (the worker may send it again)', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    world.fake.control.failNext('comments.create', { kind: 'reset' });
    const outcome = await world.network.connector.publishComment?.(aComment(post, token));
    expect(outcome?.kind).toBe('unknown');

    const found = await world.network.connector.findComment?.({
      post,
      account: anAccount(),
      credentials: { accessToken: token },
      comment: { text: 'Links and credits in the comments 👇' },
      clientReference: `${post.postId}#comment`,
      since: new Date(Date.now() - 60_000).toISOString(),
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toEqual({ kind: 'not_found' });
  });

  it('an answer that names no comment is unknown (with when it was sent), never a blind second comment', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    world.fake.control.failNext('comments.create', { kind: 'reply', reply: { status: 200, json: {} } });

    const outcome = await world.network.connector.publishComment?.(aComment(post, token));

    expect(outcome).toMatchObject({
      kind: 'unknown',
      code: 'PLATFORM_NO_COMMENT_ID',
      progress: { sentAt: expect.any(String) },
    });
  });

  it('findComment answers unknown when Instagram does not answer the listing (the comment ends uncertain)', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    world.fake.control.failNext('comments.list', { kind: 'reset' });

    const found = await world.network.connector.findComment?.({
      post,
      account: anAccount(),
      credentials: { accessToken: token },
      comment: { text: 'Links and credits in the comments 👇' },
      clientReference: `${post.postId}#comment`,
      since: new Date().toISOString(),
      signal: AbortSignal.timeout(5000),
    });
    expect(found?.kind).toBe('unknown');
  });

  it('findComment reads on past a first page of other comments', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    for (let index = 0; index < 60; index += 1) {
      world.fake.control.addComment({
        mediaId: post.platformPostId,
        userId: '999',
        username: 'fan',
        text: `Nice ${index}`,
        timestamp: Date.now(),
      });
    }
    const since = new Date().toISOString();
    const made = await world.network.connector.publishComment?.(aComment(post, token));
    const found = await world.network.connector.findComment?.({
      post,
      account: anAccount(),
      credentials: { accessToken: token },
      comment: { text: 'Links and credits in the comments 👇' },
      clientReference: `${post.postId}#comment`,
      since,
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toMatchObject({
      kind: 'found',
      platformPostId: made?.kind === 'published' ? made.platformPostId : 'none',
    });
  });

  it('the fake refuses a comment without a message, with an attachment, on another account’s media, or without the scope', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    const send = async (mediaId: string, params: Record<string, string>, as = token) => {
      const response = await fetch(`${world.fake.graphUrl}/v23.0/${mediaId}/comments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${as}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
      return ((await response.json()) as { error?: { code?: number } }).error?.code;
    };
    const [others] = world.fake.control.addPublished('17841400000009999', [Date.now()]);
    expect(await send(post.platformPostId, {})).toBe(100);
    expect(await send(post.platformPostId, { message: 'x', attachment_url: 'https://e.example/a.jpg' })).toBe(
      100,
    );
    expect(await send(others ?? '', { message: 'x' })).toBe(100);
    expect(
      await send(
        post.platformPostId,
        { message: 'x' },
        userToken(world, { scopes: COMMENT_SCOPES.slice(0, 1) }),
      ),
    ).toBe(10);
    expect(world.fake.control.comments()).toHaveLength(0);
  });
});
