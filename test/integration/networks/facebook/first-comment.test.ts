import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../../../../shared/domain/posts.js';
import type { CommentRequest, PublishProgress } from '../../../../shared/ports/connector.js';
import {
  anAccount,
  aRequest,
  type FacebookWorld,
  PAGE,
  pngBytes,
  reelBytes,
  startWorld,
  storedMedia,
} from './facebook-world.js';

const TEXT = 'Full menu and opening hours in the link 👆';

async function publishedPost(world: FacebookWorld): Promise<Post & { platformPostId: string }> {
  const request = aRequest(world, 'text', [], { postOverrides: { content: 'Open today' } });
  const outcome = await world.network.connector.publish(request);
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return {
    ...request.post,
    platformPostId: outcome.platformPostId,
    platformPostUrl: outcome.platformPostUrl,
  };
}

function aComment(
  world: FacebookWorld,
  post: Post & { platformPostId: string },
  overrides: Partial<CommentRequest> & { token?: string } = {},
): CommentRequest {
  const { token, ...rest } = overrides;
  return {
    post,
    account: anAccount(),
    credentials: { accessToken: token ?? world.pageToken() },
    comment: { text: TEXT, media: [] },
    mediaUrls: world.urls,
    attempt: 1,
    clientReference: `${post.postId}#comment`,
    signal: AbortSignal.timeout(5000),
    ...rest,
  };
}

describe('Facebook first comment against the fake', () => {
  let world: FacebookWorld;
  afterEach(() => world.stop());

  it('the Page comments on its new post: POST /{post-id}/comments with the message, named by a comment URL', async () => {
    world = await startWorld();
    const post = await publishedPost(world);

    const outcome = await world.network.connector.publishComment?.(aComment(world, post));

    const [comment] = world.fake.control.comments();
    expect(comment).toMatchObject({ objectId: post.platformPostId, fromId: PAGE.pageId, message: TEXT });
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: comment?.id,
      platformPostUrl: `${post.platformPostUrl}?comment_id=${comment?.id}`,
    });
    const sent = world.fake.control.seen().find((seen) => seen.endpoint === 'comments.create');
    expect(sent?.params).not.toHaveProperty('access_token');
  });

  it('a comment with one image: attachment_url is a presigned URL of the stored image, which Meta fetches', async () => {
    world = await startWorld();
    const post = await publishedPost(world);
    const image = storedMedia(world, 'image', { bytes: pngBytes(), mimeType: 'image/png' });

    const outcome = await world.network.connector.publishComment?.(
      aComment(world, post, { comment: { text: TEXT, media: [image.delivered] } }),
    );

    expect(outcome?.kind).toBe('published');
    const [comment] = world.fake.control.comments();
    expect(comment?.attachmentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(world.fake.control.fetchedUrls()).toContain(comment?.attachmentUrl);
  });

  it('a comment on a reel goes to the video’s comments edge (its post id is the video id)', async () => {
    world = await startWorld();
    const request = aRequest(world, 'reel', [storedMedia(world, 'video', { bytes: reelBytes(12) })], {
      postOverrides: { content: 'Morning bake #reels' },
    });
    let outcome = await world.network.connector.publish(request);
    for (let attempt = 2; outcome.kind === 'pending' && attempt < 6; attempt += 1) {
      outcome = await world.network.connector.publish({ ...request, attempt, progress: outcome.progress });
    }
    if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
    const reel = {
      ...request.post,
      platformPostId: outcome.platformPostId,
      platformPostUrl: outcome.platformPostUrl,
    };

    const comment = await world.network.connector.publishComment?.(aComment(world, reel));

    expect(comment?.kind).toBe('published');
    expect(world.fake.control.comments()[0]).toMatchObject({
      objectId: world.fake.control.videos()[0]?.id,
      message: TEXT,
    });
  });

  it('a Page token without pages_manage_engagement: the comment fails for good after the post went out, saying to reconnect', async () => {
    world = await startWorld();
    const post = await publishedPost(world);
    const token = world.fake.control.issuePageToken(PAGE.pageId, {
      scopes: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'publish_video'],
    });

    const outcome = await world.network.connector.publishComment?.(aComment(world, post, { token }));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_PERMISSION_DENIED',
      message: expect.stringContaining('pages_manage_engagement'),
    });
    expect(world.fake.control.comments()).toHaveLength(0);
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('refuses a second image or a video without a call (a comment takes at most one image)', async () => {
    world = await startWorld();
    const post = await publishedPost(world);
    const before = world.fake.control.seen().length;
    const image = () => storedMedia(world, 'image').delivered;

    for (const media of [[image(), image()], [storedMedia(world, 'video').delivered]]) {
      const outcome = await world.network.connector.publishComment?.(
        aComment(world, post, { comment: { text: TEXT, media } }),
      );
      expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent' });
    }
    expect(world.fake.control.seen()).toHaveLength(before);
  });

  it('a time-out after Meta made the comment: unknown, findComment finds it among the post’s comments, and there is one', async () => {
    world = await startWorld();
    const post = await publishedPost(world);
    // A person's comment with the same words is not the Page's.
    world.fake.control.addComment({
      objectId: post.platformPostId,
      fromId: '555',
      message: TEXT,
      createdTime: Date.now(),
    });
    const since = new Date().toISOString();
    world.fake.control.inject('comments.create', { kind: 'delayAfter', ms: 3000 });

    const outcome = await world.network.connector.publishComment?.(
      aComment(world, post, { signal: AbortSignal.timeout(800) }),
    );
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const progress = (outcome as { progress?: PublishProgress }).progress;

    const found = await world.network.connector.findComment?.({
      post,
      account: anAccount(),
      credentials: { accessToken: world.pageToken() },
      comment: { text: TEXT },
      clientReference: `${post.postId}#comment`,
      ...(progress && { progress }),
      since,
      signal: AbortSignal.timeout(5000),
    });

    const ours = world.fake.control.comments().filter((comment) => comment.fromId === PAGE.pageId);
    expect(ours).toHaveLength(1);
    expect(found).toEqual({
      kind: 'found',
      platformPostId: ours[0]?.id,
      platformPostUrl: `${post.platformPostUrl}?comment_id=${ours[0]?.id}`,
    });
  });

  it('findComment answers not_found when the Page’s comment is not there (reset before Meta did anything)', async () => {
    world = await startWorld();
    const post = await publishedPost(world);
    world.fake.control.inject('comments.create', { kind: 'reset' });
    const outcome = await world.network.connector.publishComment?.(aComment(world, post));
    expect(outcome?.kind).toBe('unknown');

    const found = await world.network.connector.findComment?.({
      post,
      account: anAccount(),
      credentials: { accessToken: world.pageToken() },
      comment: { text: TEXT },
      clientReference: `${post.postId}#comment`,
      since: new Date(Date.now() - 60_000).toISOString(),
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toEqual({ kind: 'not_found' });
  });

  it('the fake refuses a comment with two attachments, with neither message nor attachment, or by another Page', async () => {
    world = await startWorld();
    const post = await publishedPost(world);
    const send = async (params: Record<string, string>, token = world.pageToken()) => {
      const response = await fetch(`${world.fake.graphUrl}/v24.0/${post.platformPostId}/comments`, {
        method: 'POST',
        headers: { Authorization: `OAuth ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
      return ((await response.json()) as { error?: { code?: number } }).error?.code;
    };
    const otherPage = world.fake.control.issuePageToken('104000000000003');
    expect(await send({ message: 'x', attachment_url: 'http://127.0.0.1:9/a.jpg', attachment_id: '1' })).toBe(
      100,
    );
    expect(await send({})).toBe(100);
    expect(await send({ message: 'x' }, otherPage)).toBe(200);
    expect(world.fake.control.comments()).toHaveLength(0);
  });
});
