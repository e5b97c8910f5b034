import { afterEach, describe, expect, it } from 'vitest';
import type {
  LookupRequest,
  PublishOutcome,
  PublishProgress,
  PublishRequest,
} from '../../../../shared/ports/connector.js';
import {
  anAccount,
  aRequest,
  published,
  startWorld,
  type ThreadsWorld,
  threadContent,
  userToken,
} from './threads-world.js';

function progressOf(outcome: PublishOutcome): PublishProgress {
  if (outcome.kind === 'published' || !outcome.progress)
    throw new Error(`No progress in ${JSON.stringify(outcome)}`);
  return outcome.progress;
}

function lookUp(world: ThreadsWorld, request: PublishRequest, token: string, progress?: PublishProgress) {
  const lookup: LookupRequest = {
    account: anAccount(),
    credentials: { accessToken: token },
    post: request.post,
    clientReference: request.clientReference,
    ...(progress && { progress }),
    signal: AbortSignal.timeout(5000),
  };
  return world.network.connector.findPublished?.(lookup);
}

const publishes = (world: ThreadsWorld) =>
  world.fake.control.requests().filter((r) => r.endpoint === 'threads_publish').length;

describe('Threads: a time-out after the network accepted is one post, not two', () => {
  let world: ThreadsWorld;
  afterEach(() => world.stop());

  it('threads_publish done but its answer lost: unknown; the look-up finds the post by its container; a retry publishes nothing more', async () => {
    world = await startWorld();
    const token = userToken(world);
    world.fake.control.failNext('threads_publish', { kind: 'delayAfter', ms: 3000 });
    const request = aRequest(world, token, { postType: 'text', content: 'Only once' }, [], {
      signal: AbortSignal.timeout(800),
    });

    const outcome = await world.network.connector.publish(request);

    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const progress = progressOf(outcome);
    expect(progress.item).toMatchObject({ container: world.fake.control.containers()[0]?.id });
    const [post] = world.fake.control.posts();
    expect(await lookUp(world, request, token, progress)).toEqual({
      kind: 'found',
      platformPostId: post?.id,
      platformPostUrl: post?.permalink,
    });

    // Had the worker retried instead, the container's PUBLISHED status stops a second post.
    const retry = await world.network.connector.publish({
      ...request,
      attempt: 2,
      progress,
      signal: AbortSignal.timeout(5000),
    });
    expect(published(retry).platformPostId).toBe(post?.id);
    expect(world.fake.control.posts()).toHaveLength(1);
    expect(publishes(world)).toBe(1);
  });

  it('threads_publish reset before Threads did anything: unknown; the look-up says not_found (container FINISHED); the retry publishes that container once', async () => {
    world = await startWorld();
    const token = userToken(world);
    const request = aRequest(world, token, { postType: 'text', content: 'Reset' });
    world.fake.control.failNext('threads_publish', { kind: 'reset' });

    const outcome = await world.network.connector.publish(request);
    expect(outcome.kind).toBe('unknown');
    const progress = progressOf(outcome);
    expect(await lookUp(world, request, token, progress)).toEqual({ kind: 'not_found' });

    const retry = await world.network.connector.publish({ ...request, attempt: 2, progress });
    published(retry);
    expect(world.fake.control.containers()).toHaveLength(1);
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it("a thread's second post timed out after Threads took it: the look-up walks the chain (found), and a retry adds nothing", async () => {
    world = await startWorld();
    const token = userToken(world);
    const request = aRequest(world, token, {
      postType: 'thread',
      content: threadContent([{ text: 'Root' }, { text: 'Reply' }, { text: 'Last' }]),
    });
    world.fake.control.failNext('threads_publish', { kind: 'pass' });
    world.fake.control.failNext('threads_publish', { kind: 'delayAfter', ms: 3000 });
    const outcome = await world.network.connector.publish({ ...request, signal: AbortSignal.timeout(1500) });
    expect(outcome.kind).toBe('unknown');
    const progress = progressOf(outcome);
    expect(world.fake.control.posts().map((p) => p.text)).toEqual(['Root', 'Reply']);

    // The third post is not on Threads yet: the whole is not_found, and the retry makes only it.
    expect(await lookUp(world, request, token, progress)).toEqual({ kind: 'not_found' });
    const retry = await world.network.connector.publish({ ...request, attempt: 2, progress });
    const posts = world.fake.control.posts();
    expect(posts.map((p) => p.text)).toEqual(['Root', 'Reply', 'Last']);
    expect(posts[2]?.repliedTo).toBe(posts[1]?.id);
    expect(published(retry).platformPostId).toBe(posts[0]?.id);
    expect(await lookUp(world, request, token, progress)).toMatchObject({
      kind: 'found',
      platformPostId: posts[0]?.id,
    });
  });

  it('a worker that died without progress: the retry looks first and adopts the post an earlier attempt made, publishing nothing', async () => {
    world = await startWorld();
    const token = userToken(world);
    const request = aRequest(world, token, { postType: 'text', content: 'Made before the crash' });
    published(await world.network.connector.publish(request));
    expect(await lookUp(world, request, token)).toMatchObject({
      kind: 'found',
      platformPostId: world.fake.control.posts()[0]?.id,
    });

    const retry = await world.network.connector.publish({ ...request, attempt: 2 });
    expect(published(retry).platformPostId).toBe(world.fake.control.posts()[0]?.id);
    expect(world.fake.control.posts()).toHaveLength(1);
    expect(world.fake.control.containers()).toHaveLength(1);
  });

  it('a look-up that cannot ask (no token, Threads failing) is unknown, never not_found', async () => {
    world = await startWorld();
    const token = userToken(world);
    const request = aRequest(world, token, { postType: 'text', content: 'Hi' });
    const progress = { v: 1, posted: [], item: { of: '0', container: '18000000000000099' } };
    const noToken: LookupRequest = {
      account: anAccount(),
      post: request.post,
      clientReference: request.clientReference,
      progress,
      signal: AbortSignal.timeout(5000),
    };
    expect((await world.network.connector.findPublished?.(noToken))?.kind).toBe('unknown');
    world.fake.control.failNext('object.get', { kind: 'reset' });
    expect((await lookUp(world, request, token, progress))?.kind).toBe('unknown');
  });
});
