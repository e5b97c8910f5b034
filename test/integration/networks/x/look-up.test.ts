import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../../../shared/domain/posts.js';
import type { PublishOutcome, PublishProgress } from '../../../../shared/ports/connector.js';
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

/** Long past the client's time-out: the fake stores the tweet and answers only when the client has gone. */
const NEVER_MS = 30_000;
const CLIENT_TIMEOUT_MS = 300;

const progressOf = (outcome: PublishOutcome) => (outcome.kind === 'published' ? undefined : outcome.progress);

describe('X connector: an unknown outcome settled by looking the post up, never by posting again', () => {
  let world: XWorld;
  let tokens: TokenSet;
  let counter = 0;
  const text = (words: string) => {
    counter += 1;
    return `${words} #${counter}`;
  };
  const lookUp = (post: Post, progress?: PublishProgress) =>
    world.connector.findPublished?.({
      account: xAccount(),
      credentials: { accessToken: tokens.accessToken },
      post,
      clientReference: post.postId,
      signal: AbortSignal.timeout(5000),
      ...(progress && { progress }),
    });
  beforeAll(async () => {
    world = await startXWorld();
    tokens = await connect(world);
    // More tweets than X's 100 per 15 minutes: the limits are not what these tests are about.
    world.fake.control.setRateLimit('tweets.create', { remaining: 10_000 });
  });
  afterAll(async () => {
    await world.fake.stop();
  });
  const tweetCalls = () =>
    world.fake.control.requests().filter((request) => request.endpoint === 'tweets.create').length;

  it('a time-out after X accepted: unknown, the look-up finds the tweet, and the retry posts nothing: one tweet, not two', async () => {
    const post = xPost(text('Accepted, but the answer is lost'));
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS });
    const before = world.fake.control.tweets().length;

    const outcome = await world.connector.publish(
      publishRequest(post, tokens, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) }),
    );

    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const stored = world.fake.control.tweets().slice(before);
    expect(stored).toHaveLength(1);

    const found = await lookUp(post);
    expect(found).toEqual({
      kind: 'found',
      platformPostId: stored[0]?.id,
      platformPostUrl: `https://x.com/fake_x_user/status/${stored[0]?.id}`,
    });

    const calls = tweetCalls();
    const retried = await world.connector.publish(
      publishRequest(post, tokens, { attempt: 2, progress: progressOf(outcome) }),
    );
    expect(retried).toMatchObject({ kind: 'published', platformPostId: stored[0]?.id });
    expect(tweetCalls()).toBe(calls);
    expect(world.fake.control.tweets()).toHaveLength(before + 1);
  });

  it('finds a post whose text X rewrote: links shortened, & < > escaped, a media link appended', async () => {
    const bytes = new MemoryMediaBytes();
    const image = storedMedia(bytes, 'image/png', 500);
    const post = xPost(text('Tom & Jerry <3 see example.com and https://example.org/a?b=c'), {
      postType: 'image',
      media: [image.ref],
    });
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS });

    const outcome = await world.connector.publish(
      publishRequest(post, tokens, {
        media: [image.delivery],
        bytes,
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      }),
    );

    expect(outcome.kind).toBe('unknown');
    const stored = world.fake.control.tweets().at(-1);
    expect(stored?.renderedText).toMatch(
      /^Tom &amp; Jerry &lt;3 see https:\/\/t\.co\/\S+ and https:\/\/t\.co\/\S+ #\d+ https:\/\/t\.co\/\S+$/,
    );
    await expect(lookUp(post)).resolves.toMatchObject({ kind: 'found', platformPostId: stored?.id });
  });

  it('a thread whose second item got no answer: not found as a whole, and the retry finds the second on X and posts only the third', async () => {
    const items = [text('T1/ start'), text('T2/ middle'), text('T3/ end')];
    const post = xPost(items.map((item) => ({ text: item })));
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS, after: 1 });
    const before = world.fake.control.tweets().length;

    const outcome = await world.connector.publish(
      publishRequest(post, tokens, { signal: AbortSignal.timeout(1000) }),
    );

    expect(outcome.kind).toBe('unknown');
    const [first, second] = world.fake.control.tweets().slice(before);
    expect(progressOf(outcome)).toEqual({ posted: [first?.id], media: {} });
    // Some of the thread is on X, not all of it: not found, so the worker tries again.
    await expect(lookUp(post, progressOf(outcome))).resolves.toEqual({ kind: 'not_found' });

    const retried = await world.connector.publish(
      publishRequest(post, tokens, { attempt: 2, progress: progressOf(outcome) }),
    );

    const thread = world.fake.control.tweets().slice(before);
    expect(thread.map((tweet) => tweet.text)).toEqual(items);
    expect(thread[1]?.id).toBe(second?.id);
    expect(thread[2]?.replyTo).toBe(second?.id);
    expect(retried).toMatchObject({ kind: 'published', platformPostId: first?.id });
  });

  it('finds a whole thread with no progress at all (a worker that stopped before storing any)', async () => {
    const post = xPost([{ text: text('N1/') }, { text: text('N2/') }]);
    await world.connector.publish(publishRequest(post, tokens));
    const [first] = world.fake.control.tweets().slice(-2);

    await expect(lookUp(post)).resolves.toEqual({
      kind: 'found',
      platformPostId: first?.id,
      platformPostUrl: `https://x.com/fake_x_user/status/${first?.id}`,
    });
  });

  it('answers not_found for a post X never got, and the retry posts it once', async () => {
    const post = xPost(text('Never reached X'));
    world.fake.control.failNext('tweets.create', { status: 503 });
    const failed = await world.connector.publish(publishRequest(post, tokens));
    expect(failed.kind).toBe('failed');

    await expect(lookUp(post)).resolves.toEqual({ kind: 'not_found' });
    await world.connector.publish(publishRequest(post, tokens, { attempt: 2 }));

    expect(world.fake.control.tweets().filter((tweet) => tweet.text === post.content)).toHaveLength(1);
  });

  it('does not take an older tweet with the same text, from before the post was due', async () => {
    const post = xPost(text('Said before'));
    await world.connector.publish(publishRequest(post, tokens));
    const later = xPost(post.content, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });

    await expect(lookUp(later)).resolves.toEqual({ kind: 'not_found' });
  });

  it('answers unknown when the timeline cannot be read, and the retry does not post either', async () => {
    const post = xPost(text('Look-up fails'));
    world.fake.control.failNext('users.tweets', { status: 503, times: 2 });

    await expect(lookUp(post)).resolves.toMatchObject({ kind: 'unknown' });
    const calls = tweetCalls();
    const retried = await world.connector.publish(publishRequest(post, tokens, { attempt: 2 }));

    expect(retried).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_ERROR' });
    expect(tweetCalls()).toBe(calls);
  });

  it('answers unknown when more has been posted since than the look-up reads', async () => {
    const { makeXConnector } = await import('../../../../shared/networks/x/connector.js');
    const onePage = makeXConnector({ apiUrl: world.fake.apiUrl, lookupPages: 1 });
    const post = xPost(text('Buried'));
    await world.connector.publish(publishRequest(post, tokens));
    for (let n = 0; n < 100; n += 1)
      await world.connector.publish(publishRequest(xPost(text('noise')), tokens));

    const found = await onePage.findPublished?.({
      account: xAccount(),
      credentials: { accessToken: tokens.accessToken },
      post,
      clientReference: post.postId,
      signal: AbortSignal.timeout(5000),
    });

    expect(found).toMatchObject({ kind: 'unknown' });
    await expect(lookUp(post)).resolves.toMatchObject({ kind: 'found' });
  });

  it("takes X's duplicate refusal as its own earlier tweet when the timeline did not show it yet", async () => {
    const post = xPost(text('Lagging timeline'));
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS });
    const outcome = await world.connector.publish(
      publishRequest(post, tokens, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) }),
    );
    const stored = world.fake.control.tweets().at(-1);
    // The timeline has not caught up: the first read shows nothing new.
    world.fake.control.failNext('users.tweets', { status: 200, body: { meta: { result_count: 0 } } });

    const retried = await world.connector.publish(
      publishRequest(post, tokens, { attempt: 2, progress: progressOf(outcome) }),
    );

    expect(retried).toMatchObject({ kind: 'published', platformPostId: stored?.id });
    expect(world.fake.control.tweets().filter((tweet) => tweet.text === post.content)).toHaveLength(1);
  });

  it('answers unknown, without calling X, for an account with no access token', async () => {
    const calls = world.fake.control.requests().length;

    const found = await world.connector.findPublished?.({
      account: xAccount(),
      post: xPost('anything'),
      clientReference: 'pst_x',
      signal: AbortSignal.timeout(1000),
    });

    expect(found).toMatchObject({ kind: 'unknown' });
    expect(world.fake.control.requests()).toHaveLength(calls);
  });
});
