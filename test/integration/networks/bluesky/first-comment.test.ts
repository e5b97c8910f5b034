import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../../../shared/domain/posts.js';
import type { CommentOutcome, CommentRequest } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import {
  anAccount,
  aPost,
  type BlueskyWorld,
  connect,
  publishRequest,
  startWorld,
  storedMedia,
} from './bluesky-world.js';

const LATE = { kind: 'delayAfter' as const, ms: 1500 };
const TID = /^[234567a-j][234567a-z]{12}$/;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type PublishedPost = Post & { platformPostId: string };

/** A post's first comment on Bluesky: a reply record, against the fake PDS over HTTP. */
describe('Bluesky: the first comment, a reply record', () => {
  let world: BlueskyWorld;
  let tokens: TokenSet;
  let counter = 0;
  const text = (words: string) => {
    counter += 1;
    return `${words} #${counter}`;
  };
  beforeAll(async () => {
    world = await startWorld();
    tokens = await connect(world);
    // Learns the PDS's DPoP nonce, so a failure queued below meets the call it is meant for.
    await world.network.connector.publish(publishRequest(world, aPost('Warm-up'), tokens));
  });
  afterAll(async () => {
    await world?.stop();
  });

  const published = async (): Promise<PublishedPost> => {
    const post = aPost(text('The post'));
    const outcome = await world.network.connector.publish(publishRequest(world, post, tokens));
    if (outcome.kind !== 'published') throw new Error(`Not published: ${outcome.kind}`);
    return {
      ...post,
      status: 'published',
      platformPostId: outcome.platformPostId,
      publishedAt: new Date().toISOString(),
    };
  };
  const commentRequest = (
    post: PublishedPost,
    words: string,
    extra: Partial<CommentRequest> = {},
  ): CommentRequest => ({
    post,
    account: anAccount(),
    credentials: { accessToken: tokens.accessToken },
    comment: { text: words, media: [] },
    attempt: 1,
    clientReference: `${post.postId}#comment`,
    bytes: world.bytes,
    signal: AbortSignal.timeout(10_000),
    ...extra,
  });
  const comment = (request: CommentRequest) =>
    world.network.connector.publishComment?.(request) as Promise<CommentOutcome>;
  const findComment = (post: PublishedPost, words: string, progress?: CommentRequest['progress']) =>
    world.network.connector.findComment?.({
      post,
      account: anAccount(),
      credentials: { accessToken: tokens.accessToken },
      comment: { text: words },
      clientReference: `${post.postId}#comment`,
      ...(progress && { progress }),
      since: new Date().toISOString(),
      signal: AbortSignal.timeout(5000),
    });
  const repliesTo = (uri: string) =>
    world.fake.control
      .posts()
      .filter(
        (record) => (record.value.reply as { parent?: { uri?: string } } | undefined)?.parent?.uri === uri,
      );
  const recordOf = (uri: string) => world.fake.control.posts().find((record) => record.uri === uri);

  it('makes a reply whose root and parent are the post (uri and CID), and answers its uri and address', async () => {
    const post = await published();
    const words = text('First!');
    const outcome = await comment(commentRequest(post, words));
    const [reply] = repliesTo(post.platformPostId);
    const ref = { uri: post.platformPostId, cid: recordOf(post.platformPostId)?.cid };
    expect(reply?.value).toMatchObject({ text: words, reply: { root: ref, parent: ref } });
    expect(reply?.rkey).toMatch(TID);
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: reply?.uri,
      platformPostUrl: expect.stringMatching(new RegExp(`/post/${reply?.rkey}$`)),
    });
  });

  it('embeds the comment’s images as a post’s, with their alt text', async () => {
    const post = await published();
    const image = storedMedia(world.bytes, 'image/png', 2000, 'A chart');
    const outcome = await comment({
      ...commentRequest(post, text('With a picture')),
      comment: { text: text('With a picture'), media: [image.delivery] },
    });
    expect(outcome.kind).toBe('published');
    expect(repliesTo(post.platformPostId)[0]?.value.embed).toMatchObject({
      $type: 'app.bsky.embed.images',
      images: [{ alt: 'A chart', image: { $type: 'blob', mimeType: 'image/png', size: 2000 } }],
    });
  });

  it('a comment with a video: pending while the video service works (its key and the post kept), then the reply', async () => {
    const post = await published();
    const words = text('A clip below');
    const video = storedMedia(world.bytes, 'video/mp4', 300_000, 'The clip');
    const request = (extra: Partial<CommentRequest> = {}) => ({
      ...commentRequest(post, words, extra),
      comment: { text: words, media: [video.delivery] },
    });
    const first = await comment(request());
    expect(first).toMatchObject({ kind: 'pending', stage: 'media_processing' });
    if (first.kind !== 'pending') return;
    expect(first.progress).toMatchObject({
      sending: expect.stringMatching(TID),
      parent: { uri: post.platformPostId },
    });
    let outcome: CommentOutcome = first;
    for (let attempt = 2; outcome.kind === 'pending' && attempt < 6; attempt += 1) {
      outcome = await comment(request({ attempt, progress: outcome.progress }));
    }
    expect(outcome.kind).toBe('published');
    const replies = repliesTo(post.platformPostId);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.rkey).toBe(first.progress.sending);
    expect(replies[0]?.value.embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      alt: 'The clip',
      video: { mimeType: 'video/mp4', size: 300_000 },
    });
  });

  it('Bluesky refusing the reply (400): the comment fails for good, with its key kept; the post stays', async () => {
    const post = await published();
    world.fake.control.inject('createRecord', {
      kind: 'reply',
      reply: { status: 400, json: { error: 'InvalidRequest', message: 'Reply not allowed' } },
    });
    const outcome = await comment(commentRequest(post, text('Refused')));
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'PLATFORM_REJECTED' });
    if (outcome.kind === 'failed') expect(outcome.progress?.sending).toMatch(TID);
    expect(repliesTo(post.platformPostId)).toHaveLength(0);
    expect(recordOf(post.platformPostId)).toBeDefined();
  });

  it('a post no longer on Bluesky: the comment fails for good (COMMENT_TARGET_GONE), nothing is created', async () => {
    const post = await published();
    world.fake.control.inject('getRecord', {
      kind: 'reply',
      reply: { status: 400, json: { error: 'RecordNotFound', message: 'Could not locate record' } },
    });
    const before = world.fake.control.posts().length;
    const outcome = await comment(commentRequest(post, text('Too late')));
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'COMMENT_TARGET_GONE' });
    expect(world.fake.control.posts()).toHaveLength(before);
  });

  it('a time-out after the PDS accepted: unknown, findComment finds it by its key, the retry adopts it: one comment', async () => {
    const post = await published();
    const words = text('Accepted, answer lost');
    world.fake.control.inject('createRecord', LATE);
    const outcome = await comment(commentRequest(post, words, { signal: AbortSignal.timeout(300) }));
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const progress = outcome.kind === 'unknown' ? outcome.progress : undefined;
    expect(progress?.sending).toMatch(TID);
    await wait(1600);

    const [reply] = repliesTo(post.platformPostId);
    expect(reply?.rkey).toBe(progress?.sending);
    await expect(findComment(post, words, progress)).resolves.toEqual({
      kind: 'found',
      platformPostId: reply?.uri,
      platformPostUrl: expect.stringContaining(String(reply?.rkey)),
    });
    const retried = await comment(commentRequest(post, words, { attempt: 2, ...(progress && { progress }) }));
    expect(retried).toMatchObject({ kind: 'published', platformPostId: reply?.uri });
    expect(repliesTo(post.platformPostId)).toHaveLength(1);
  });

  it('a worker that died before keeping the progress: the same key is derived again, found, one comment', async () => {
    const post = await published();
    const words = text('Worker died');
    world.fake.control.inject('createRecord', LATE);
    await comment(commentRequest(post, words, { signal: AbortSignal.timeout(300) }));
    await wait(1600);
    await expect(findComment(post, words)).resolves.toMatchObject({ kind: 'found' });
    await expect(comment(commentRequest(post, words, { attempt: 2 }))).resolves.toMatchObject({
      kind: 'published',
      platformPostId: repliesTo(post.platformPostId)[0]?.uri,
    });
    expect(repliesTo(post.platformPostId)).toHaveLength(1);
  });

  it('findComment answers not_found when no record is under the key, and unknown when the PDS does not answer usably', async () => {
    const post = await published();
    await expect(findComment(post, text('Never sent'))).resolves.toEqual({ kind: 'not_found' });
    world.fake.control.inject('getRecord', { kind: 'reply', reply: { status: 502, json: {} } });
    await expect(findComment(post, text('Unsure'))).resolves.toMatchObject({ kind: 'unknown' });
  });
});
