import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../../../../shared/domain/posts.js';
import type { CommentOutcome, CommentRequest, PublishProgress } from '../../../../shared/ports/connector.js';
import {
  anAccount,
  aRequest,
  published,
  publishUntilSettled,
  startWorld,
  storedMedia,
  type ThreadsWorld,
  USER,
  userToken,
} from './threads-world.js';

const TEXT = 'Sources for this thread, below 👇';

async function publishedPost(world: ThreadsWorld, token: string): Promise<Post & { platformPostId: string }> {
  const request = aRequest(world, token, { postType: 'text', content: 'A new post' });
  const [outcome] = await publishUntilSettled(world, request);
  const done = published(outcome);
  return { ...request.post, platformPostId: done.platformPostId, platformPostUrl: done.platformPostUrl };
}

function aComment(
  world: ThreadsWorld,
  post: Post & { platformPostId: string },
  token: string,
  overrides: Partial<CommentRequest> = {},
): CommentRequest {
  return {
    post,
    account: anAccount(),
    credentials: { accessToken: token },
    comment: { text: TEXT, media: [] },
    mediaUrls: world.urls,
    attempt: 1,
    clientReference: `${post.postId}#comment`,
    signal: AbortSignal.timeout(5000),
    ...overrides,
  };
}

/** Attempts of a comment as the worker makes them: a pending outcome's progress handed to the next. */
async function commentUntilSettled(world: ThreadsWorld, request: CommentRequest): Promise<CommentOutcome[]> {
  const outcomes: CommentOutcome[] = [];
  let progress = request.progress;
  for (let attempt = 1; attempt <= 6; attempt += 1) {
    const outcome = await world.network.connector.publishComment?.({
      ...request,
      attempt,
      ...(progress && { progress }),
    });
    if (!outcome) throw new Error('No publishComment');
    outcomes.push(outcome);
    if (outcome.kind !== 'pending') break;
    progress = outcome.progress;
  }
  return outcomes;
}

describe('Threads first comment (a reply) against the fake', () => {
  let world: ThreadsWorld;
  afterEach(() => world.stop());

  it('replies to the new post from the same account: a TEXT container with reply_to_id, then threads_publish', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);

    const outcomes = await commentUntilSettled(world, aComment(world, post, token));

    const reply = world.fake.control.posts().find((item) => item.repliedTo === post.platformPostId);
    expect(outcomes.at(-1)).toEqual({
      kind: 'published',
      platformPostId: reply?.id,
      platformPostUrl: reply?.permalink,
    });
    expect(reply).toMatchObject({ owner: USER.userId, text: TEXT, mediaType: 'TEXT_POST' });
    expect(world.fake.control.containers().at(-1)?.params).toMatchObject({
      media_type: 'TEXT',
      text: TEXT,
      reply_to_id: post.platformPostId,
    });
  });

  it('a reply with an image: the container fetches it from a presigned URL, like a post’s', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    const image = storedMedia(world, 'image', { alt: 'The chart' });

    const outcomes = await commentUntilSettled(
      world,
      aComment(world, post, token, { comment: { text: TEXT, media: [image.delivered] } }),
    );

    expect(outcomes.at(-1)?.kind).toBe('published');
    expect(world.fake.control.containers().at(-1)?.params).toMatchObject({
      media_type: 'IMAGE',
      reply_to_id: post.platformPostId,
      alt_text: 'The chart',
    });
    expect(world.fake.control.posts().filter((item) => item.repliedTo === post.platformPostId)).toHaveLength(
      1,
    );
  });

  it('a reply with a video is pending while Threads processes it, then published from the same container', async () => {
    world = await startWorld({ processingPolls: { VIDEO: 2 } });
    const token = userToken(world);
    const post = await publishedPost(world, token);
    const video = storedMedia(world, 'video');

    const outcomes = await commentUntilSettled(
      world,
      aComment(world, post, token, { comment: { text: TEXT, media: [video.delivered] } }),
    );

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['pending', 'pending', 'published']);
    expect(outcomes[0]).toMatchObject({
      stage: 'container_processing',
      progress: { item: { container: expect.any(String) } },
    });
    const replyContainers = world.fake.control
      .containers()
      .filter((item) => item.params.reply_to_id === post.platformPostId);
    expect(replyContainers).toHaveLength(1);
    expect(replyContainers[0]?.params.media_type).toBe('VIDEO');
  });

  it('the reply allowance used up: a failed comment (rate limited), nothing made, the post untouched', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    world.fake.control.setReplyQuotaTotal(1);
    world.fake.control.addPublished(USER.userId, [Date.now() - 60_000], {
      text: 'An earlier reply',
      repliedTo: post.platformPostId,
    });

    const [outcome] = await commentUntilSettled(world, aComment(world, post, token));

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'rate_limited', code: 'REPLY_LIMIT_REACHED' });
    expect(world.fake.control.containers()).toHaveLength(1);
    expect(world.fake.control.posts()).toHaveLength(2);
  });

  it('Threads refusing the reply after the post went out (the account’s grant lost threads_manage_replies): a failed comment', async () => {
    world = await startWorld();
    const post = await publishedPost(world, userToken(world));
    const token = userToken(world, {
      scopes: ['threads_basic', 'threads_content_publish', 'threads_read_replies'],
    });

    const [outcome] = await commentUntilSettled(world, aComment(world, post, token));

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent' });
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('a time-out after Threads published the reply: unknown with the container, findComment finds it, and there is one reply', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    const since = new Date().toISOString();
    world.fake.control.failNext('threads_publish', { kind: 'delayAfter', ms: 3000 });

    const outcome = await world.network.connector.publishComment?.(
      aComment(world, post, token, { signal: AbortSignal.timeout(800) }),
    );

    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const progress = (outcome as { progress?: PublishProgress }).progress;
    expect(progress).toMatchObject({
      item: { container: expect.any(String), publishSentAt: expect.any(String) },
    });
    const lookup = {
      post,
      account: anAccount(),
      credentials: { accessToken: token },
      comment: { text: TEXT },
      clientReference: `${post.postId}#comment`,
      ...(progress && { progress }),
      since,
      signal: AbortSignal.timeout(5000),
    };
    const found = await world.network.connector.findComment?.(lookup);

    const replies = world.fake.control.posts().filter((item) => item.repliedTo === post.platformPostId);
    expect(replies).toHaveLength(1);
    expect(found).toEqual({
      kind: 'found',
      platformPostId: replies[0]?.id,
      platformPostUrl: replies[0]?.permalink,
    });

    // Had the worker sent it again with that progress, the container's PUBLISHED status stops a second reply.
    const again = await world.network.connector.publishComment?.(
      aComment(world, post, token, { attempt: 2, ...(progress && { progress }) }),
    );
    expect(again).toMatchObject({ kind: 'published', platformPostId: replies[0]?.id });
    expect(world.fake.control.posts().filter((item) => item.repliedTo === post.platformPostId)).toHaveLength(
      1,
    );
  });

  it('findComment: a recorded container not yet published is not_found (the retry publishes that container)', async () => {
    world = await startWorld();
    const token = userToken(world);
    const post = await publishedPost(world, token);
    world.fake.control.failNext('threads_publish', { kind: 'reset' });

    const outcome = await world.network.connector.publishComment?.(aComment(world, post, token));
    expect(outcome?.kind).toBe('unknown');
    const progress = (outcome as { progress?: PublishProgress }).progress;

    const found = await world.network.connector.findComment?.({
      post,
      account: anAccount(),
      credentials: { accessToken: token },
      comment: { text: TEXT },
      clientReference: `${post.postId}#comment`,
      ...(progress && { progress }),
      since: new Date(Date.now() - 60_000).toISOString(),
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toEqual({ kind: 'not_found' });

    const retry = await world.network.connector.publishComment?.(
      aComment(world, post, token, { attempt: 2, ...(progress && { progress }) }),
    );
    expect(retry?.kind).toBe('published');
    const containers = world.fake.control
      .containers()
      .filter((item) => item.params.reply_to_id === post.platformPostId);
    expect(containers).toHaveLength(1);
  });
});
