import { afterEach, describe, expect, it } from 'vitest';
import { COMMENT_MAX_CHARS, googleError } from '../../../../infra/fake-networks/youtube/index.js';
import type { Post } from '../../../../shared/domain/posts.js';
import type { CommentLookupRequest, CommentRequest } from '../../../../shared/ports/connector.js';
import { anAccount, aPost, CHANNEL, channelToken, startWorld, type YouTubeWorld } from './youtube-world.js';

const UPLOAD = 'https://www.googleapis.com/auth/youtube.upload';
const READONLY = 'https://www.googleapis.com/auth/youtube.readonly';

describe('YouTube first comments against the fake (commentThreads)', () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  /** A processed video of the channel, public unless said otherwise, as the published post names it. */
  function publishedPost(privacy: 'public' | 'private' = 'public'): Post & { platformPostId: string } {
    const videoId = world.fake.control.addVideo({ channelId: CHANNEL.id, title: 'Launch' });
    if (privacy === 'private') {
      const video = world.fake.control.videos().find((item) => item.id === videoId);
      if (video) video.privacyStatus = 'private';
    }
    return { ...aPost({ status: 'published' }), platformPostId: videoId };
  }

  function aCommentRequest(
    post: Post & { platformPostId: string },
    token: string,
    overrides: Partial<CommentRequest> = {},
  ): CommentRequest {
    return {
      post,
      account: anAccount(),
      credentials: { accessToken: token },
      comment: { text: 'Chapters: 0:00 intro, 1:20 demo', media: [] },
      attempt: 1,
      clientReference: `${post.postId}:comment`,
      signal: AbortSignal.timeout(5_000),
      ...overrides,
    };
  }

  function aLookup(request: CommentRequest, since: string): CommentLookupRequest {
    return {
      post: request.post,
      account: request.account,
      ...(request.credentials && { credentials: request.credentials }),
      comment: { text: request.comment.text },
      clientReference: request.clientReference,
      since,
      signal: AbortSignal.timeout(5_000),
    };
  }

  it('posts a top-level comment by the channel on its video and names it (comment id, its address on the watch page), 50 units', async () => {
    world = await startWorld();
    const post = publishedPost();

    const outcome = await world.network.connector.publishComment?.(
      aCommentRequest(post, channelToken(world)),
    );

    const [comment] = world.fake.control.comments();
    expect(comment).toMatchObject({
      videoId: post.platformPostId,
      channelId: CHANNEL.id,
      authorChannelId: CHANNEL.id,
      textOriginal: 'Chapters: 0:00 intro, 1:20 demo',
    });
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: comment?.id,
      platformPostUrl: `https://www.youtube.com/watch?v=${post.platformPostId}&lc=${comment?.id}`,
    });
    expect(world.fake.control.quota().used).toBe(50);
  });

  it('fails for good, asking for a reconnect, with a token without youtube.force-ssl (403 insufficientPermissions)', async () => {
    world = await startWorld();
    const post = publishedPost();

    const outcome = await world.network.connector.publishComment?.(
      aCommentRequest(post, channelToken(world, [UPLOAD, READONLY])),
    );

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'FIRST_COMMENT_NEEDS_RECONNECT',
      platformRawCode: 'insufficientPermissions',
    });
    expect(world.fake.control.comments()).toEqual([]);
  });

  it.each([
    ['comments turned off', 'COMMENTS_DISABLED', 'commentsDisabled'],
    ['a private video', 'PLATFORM_PERMISSION_DENIED', 'forbidden'],
    ['a video no longer there', 'PLATFORM_REJECTED', 'videoNotFound'],
  ])('fails for good on %s (%s)', async (situation, code, raw) => {
    world = await startWorld();
    const post = publishedPost(situation === 'a private video' ? 'private' : 'public');
    if (situation === 'comments turned off')
      world.fake.control.setCommentsDisabled(post.platformPostId, true);
    if (situation === 'a video no longer there') world.fake.control.deleteVideo(post.platformPostId);

    const outcome = await world.network.connector.publishComment?.(
      aCommentRequest(post, channelToken(world)),
    );

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code, platformRawCode: raw });
    expect(world.fake.control.comments()).toEqual([]);
  });

  it('fails for now on a server error (transient: the worker tries the comment again, never the post)', async () => {
    world = await startWorld();
    const post = publishedPost();
    world.fake.control.failNext('commentThreads.insert', {
      kind: 'reply',
      reply: googleError(503, 'backendError', 'Backend Error'),
    });

    const outcome = await world.network.connector.publishComment?.(
      aCommentRequest(post, channelToken(world)),
    );

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_ERROR' });
    expect(world.fake.control.videos()).toHaveLength(1);
  });

  it('the fake refuses a text over 10,000 characters (commentTextTooLong) and a blank one', async () => {
    world = await startWorld();
    const post = publishedPost();
    const token = channelToken(world);

    const tooLong = await world.network.connector.publishComment?.(
      aCommentRequest(post, token, { comment: { text: 'x'.repeat(COMMENT_MAX_CHARS + 1), media: [] } }),
    );
    const blank = await world.network.connector.publishComment?.(
      aCommentRequest(post, token, { comment: { text: '   ', media: [] } }),
    );

    expect(tooLong).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      platformRawCode: 'commentTextTooLong',
    });
    expect(blank).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      platformRawCode: 'commentTextRequired',
    });
  });

  it('after a time-out once YouTube had made the comment: unknown, and the look-up finds that comment (never a second one)', async () => {
    world = await startWorld();
    const post = publishedPost();
    const token = channelToken(world);
    const since = new Date().toISOString();
    world.fake.control.failNext('commentThreads.insert', { kind: 'delayAfter', ms: 3_000 });
    const request = aCommentRequest(post, token, { signal: AbortSignal.timeout(500) });

    const outcome = await world.network.connector.publishComment?.(request);
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });

    const found = await world.network.connector.findComment?.(aLookup(request, since));

    const comments = world.fake.control.comments();
    expect(comments).toHaveLength(1);
    expect(found).toEqual({
      kind: 'found',
      platformPostId: comments[0]?.id,
      platformPostUrl: `https://www.youtube.com/watch?v=${post.platformPostId}&lc=${comments[0]?.id}`,
    });
    const [list] = world.fake.control.requests().filter((seen) => seen.endpoint === 'commentThreads.list');
    expect(list?.query).toMatchObject({ videoId: post.platformPostId, order: 'time', part: 'snippet' });
  });

  it("after a call lost before YouTube acted: the look-up answers not_found, and it ignores another channel's comment with the same text", async () => {
    world = await startWorld();
    const post = publishedPost();
    const other = { ...CHANNEL, id: 'UCother0000000000000001' };
    world.fake.control.addChannel(other);
    const since = new Date().toISOString();
    const request = aCommentRequest(post, channelToken(world));
    // A viewer's comment with the very same text.
    const viewer = world.fake.control.issueToken(other.id, [
      'https://www.googleapis.com/auth/youtube.force-ssl',
    ]);
    await world.network.connector.publishComment?.(
      aCommentRequest(post, viewer, { account: anAccount({ networkUserId: CHANNEL.id }) }),
    );
    world.fake.control.failNext('commentThreads.insert', { kind: 'reset' });

    const outcome = await world.network.connector.publishComment?.(request);
    expect(outcome?.kind).toBe('unknown');

    const lookedUp = await world.network.connector.findComment?.(aLookup(request, since));

    expect(lookedUp).toEqual({ kind: 'not_found' });
    expect(world.fake.control.comments().map((comment) => comment.authorChannelId)).toEqual([other.id]);
  });

  it('answers unknown when YouTube does not list the comments (a server error), so the comment is never tried twice blindly', async () => {
    world = await startWorld();
    const post = publishedPost();
    const request = aCommentRequest(post, channelToken(world));
    world.fake.control.failNext('commentThreads.list', {
      kind: 'reply',
      reply: googleError(500, 'backendError', 'Backend Error'),
    });

    const lookedUp = await world.network.connector.findComment?.(aLookup(request, new Date().toISOString()));

    expect(lookedUp).toMatchObject({ kind: 'unknown' });
  });
});
