import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_X_USER } from '../../../../infra/fake-networks/x/index.js';
import type { Post } from '../../../../shared/domain/posts.js';
import type { CommentOutcome, CommentRequest, DeliveryMedia } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import {
  connect,
  MemoryMediaBytes,
  publishRequest,
  startXWorld,
  storedMedia,
  type XWorld,
  xAccount,
  xPost,
} from './x-fixture.js';

const NEVER_MS = 30_000;

/** A post's first comment on X: a reply from the same account, against the fake X over HTTP. */
describe('X connector: the first comment, a reply to the post', () => {
  let world: XWorld;
  let tokens: TokenSet;
  let counter = 0;
  const text = (words: string) => {
    counter += 1;
    return `${words} #${counter}`;
  };
  beforeAll(async () => {
    world = await startXWorld();
    tokens = await connect(world);
    world.fake.control.setRateLimit('tweets.create', { remaining: 10_000 });
  });
  afterAll(async () => {
    await world.fake.stop();
  });

  /** A post published on the fake, as the worker holds it once published. */
  const published = async (): Promise<Post & { platformPostId: string }> => {
    const post = xPost(text('The post'));
    const outcome = await world.connector.publish(publishRequest(post, tokens));
    if (outcome.kind !== 'published') throw new Error(`Not published: ${outcome.kind}`);
    return {
      ...post,
      status: 'published',
      platformPostId: outcome.platformPostId,
      publishedAt: new Date().toISOString(),
    };
  };
  const commentRequest = (
    post: Post & { platformPostId: string },
    comment: string,
    extra: Partial<CommentRequest> = {},
  ): CommentRequest => ({
    post,
    account: xAccount(),
    credentials: { accessToken: tokens.accessToken },
    comment: { text: comment, media: [] },
    attempt: 1,
    clientReference: `${post.postId}#comment`,
    signal: AbortSignal.timeout(10_000),
    ...extra,
  });
  const comment = (request: CommentRequest) =>
    world.connector.publishComment?.(request) as Promise<CommentOutcome>;
  const repliesTo = (id: string) => world.fake.control.tweets().filter((tweet) => tweet.replyTo === id);

  it('posts the comment as a reply by the same account and answers the reply’s id and URL', async () => {
    const post = await published();
    const outcome = await comment(commentRequest(post, text('First!')));
    const [reply] = repliesTo(post.platformPostId);
    expect(reply).toMatchObject({ authorId: DEFAULT_FAKE_X_USER.id });
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: reply?.id,
      platformPostUrl: `https://x.com/${DEFAULT_FAKE_X_USER.username}/status/${reply?.id}`,
    });
  });

  it('uploads the comment’s image as a post’s and attaches it', async () => {
    const post = await published();
    const bytes = new MemoryMediaBytes();
    const image = storedMedia(bytes, 'image/png', 400, 'A chart');
    const media: DeliveryMedia[] = [image.delivery];
    const outcome = await comment({
      ...commentRequest(post, text('With a picture')),
      comment: { text: text('With a picture'), media },
      bytes,
    });
    expect(outcome.kind).toBe('published');
    const [reply] = repliesTo(post.platformPostId);
    const uploaded = world.fake.control.media().find((item) => item.id === reply?.mediaIds[0]);
    expect(uploaded).toMatchObject({ sha256: image.sha256, altText: 'A chart' });
  });

  it('X refusing the reply (its 2026 reply restriction, 403): the comment fails for good, the post stays', async () => {
    const post = await published();
    world.fake.control.restrictReplies('all');
    try {
      const outcome = await comment(commentRequest(post, text('Refused')));
      expect(outcome).toMatchObject({
        kind: 'failed',
        failure: 'permanent',
        code: 'REPLY_NOT_ALLOWED',
        platformRawCode: '403',
      });
    } finally {
      world.fake.control.restrictReplies('off');
    }
    expect(repliesTo(post.platformPostId)).toHaveLength(0);
    expect(world.fake.control.tweets().some((tweet) => tweet.id === post.platformPostId)).toBe(true);
  });

  it('self-replies pass a restriction that exempts them (replies to others only)', async () => {
    const post = await published();
    world.fake.control.restrictReplies('others');
    try {
      await expect(comment(commentRequest(post, text('Mine')))).resolves.toMatchObject({ kind: 'published' });
    } finally {
      world.fake.control.restrictReplies('off');
    }
  });

  it('a time-out after X accepted: unknown, findComment finds it, the retry posts nothing: one comment', async () => {
    const post = await published();
    const words = text('Accepted, answer lost');
    const since = new Date().toISOString();
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS });
    const outcome = await comment(commentRequest(post, words, { signal: AbortSignal.timeout(300) }));
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const [reply] = repliesTo(post.platformPostId);

    const found = await world.connector.findComment?.({
      post,
      account: xAccount(),
      credentials: { accessToken: tokens.accessToken },
      comment: { text: words },
      clientReference: `${post.postId}#comment`,
      ...(outcome.kind === 'unknown' && outcome.progress && { progress: outcome.progress }),
      since,
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toEqual({
      kind: 'found',
      platformPostId: reply?.id,
      platformPostUrl: `https://x.com/${DEFAULT_FAKE_X_USER.username}/status/${reply?.id}`,
    });

    const retried = await comment(
      commentRequest(post, words, {
        attempt: 2,
        ...(outcome.kind === 'unknown' && outcome.progress && { progress: outcome.progress }),
      }),
    );
    expect(retried).toMatchObject({ kind: 'published', platformPostId: reply?.id });
    expect(repliesTo(post.platformPostId)).toHaveLength(1);
  });

  it('findComment answers not_found when the account has no such reply (the worker may retry)', async () => {
    const post = await published();
    const found = await world.connector.findComment?.({
      post,
      account: xAccount(),
      credentials: { accessToken: tokens.accessToken },
      comment: { text: text('Never sent') },
      clientReference: `${post.postId}#comment`,
      since: new Date().toISOString(),
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toEqual({ kind: 'not_found' });
  });

  it('findComment answers unknown when X does not answer the look-up usably', async () => {
    const post = await published();
    world.fake.control.failNext('users.tweets', { status: 503 });
    const found = await world.connector.findComment?.({
      post,
      account: xAccount(),
      credentials: { accessToken: tokens.accessToken },
      comment: { text: text('Unsure') },
      clientReference: `${post.postId}#comment`,
      since: new Date().toISOString(),
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toMatchObject({ kind: 'unknown' });
  });
});
