import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_X_USER } from '../../../../infra/fake-networks/x/index.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import { connect, publishRequest, startXWorld, type XWorld, xPost } from './x-fixture.js';

describe('X connector: text posts and threads against the fake X', () => {
  let world: XWorld;
  let tokens: TokenSet;
  beforeAll(async () => {
    world = await startXWorld();
    tokens = await connect(world);
  });
  afterAll(async () => {
    await world.fake.stop();
  });
  let run = 0;
  beforeEach(() => {
    run += 1;
  });
  const unique = (text: string) => `${text} (${run})`;

  it('posts a text post and answers its id and x.com URL', async () => {
    const post = xPost(unique('Hello from the connector'));

    const outcome = await world.connector.publish(publishRequest(post, tokens));

    const stored = world.fake.control.tweets().at(-1);
    expect(stored).toMatchObject({ text: post.content, authorId: DEFAULT_FAKE_X_USER.id, mediaIds: [] });
    expect(stored?.replyTo).toBeUndefined();
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: stored?.id,
      platformPostUrl: `https://x.com/${DEFAULT_FAKE_X_USER.username}/status/${stored?.id}`,
    });
  });

  it("sends the post's reply settings as X's reply_settings", async () => {
    const post = xPost(unique('Only people I follow may reply'), {
      platformOptions: { twitter: { replySettings: 'following' } },
    });

    await world.connector.publish(publishRequest(post, tokens));

    expect(world.fake.control.tweets().at(-1)?.replySettings).toBe('following');
  });

  it('posts a thread as a chain of replies and answers the first tweet', async () => {
    const post = xPost([
      { text: unique('1/ A thread') },
      { text: unique('2/ goes on') },
      { text: unique('3/ and ends') },
    ]);

    const outcome = await world.connector.publish(publishRequest(post, tokens));

    const [first, second, third] = world.fake.control.tweets().slice(-3);
    expect([first?.text, second?.text, third?.text]).toEqual([
      unique('1/ A thread'),
      unique('2/ goes on'),
      unique('3/ and ends'),
    ]);
    expect(first?.replyTo).toBeUndefined();
    expect(second?.replyTo).toBe(first?.id);
    expect(third?.replyTo).toBe(second?.id);
    expect(outcome).toMatchObject({ kind: 'published', platformPostId: first?.id });
  });

  it('hands back the items posted when a later one fails, and the retry posts only the rest', async () => {
    const post = xPost([
      { text: unique('A/ first') },
      { text: unique('B/ second') },
      { text: unique('C/ third') },
    ]);
    const before = world.fake.control.tweets().length;
    world.fake.control.failNext('tweets.create', {
      status: 503,
      body: { title: 'Service Unavailable', type: 'about:blank', status: 503 },
      after: 1,
    });

    const failed = await world.connector.publish(publishRequest(post, tokens));

    expect(failed).toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_ERROR',
      platformRawCode: '503',
    });
    const firstId = world.fake.control.tweets().at(-1)?.id;
    expect(world.fake.control.tweets()).toHaveLength(before + 1);
    expect(failed.kind === 'failed' && failed.progress).toEqual({ posted: [firstId], media: {} });

    const retried = await world.connector.publish(
      publishRequest(post, tokens, {
        attempt: 2,
        ...(failed.kind === 'failed' && failed.progress && { progress: failed.progress }),
      }),
    );

    const thread = world.fake.control.tweets().slice(before);
    expect(thread.map((tweet) => tweet.text)).toEqual([
      unique('A/ first'),
      unique('B/ second'),
      unique('C/ third'),
    ]);
    expect(thread[1]?.replyTo).toBe(firstId);
    expect(thread[2]?.replyTo).toBe(thread[1]?.id);
    expect(retried).toMatchObject({ kind: 'published', platformPostId: firstId });
  });

  it('answers published without calling POST /2/tweets when the progress holds every item', async () => {
    const post = xPost([{ text: unique('x1') }, { text: unique('x2') }]);
    const done = await world.connector.publish(publishRequest(post, tokens));
    const ids = world.fake.control
      .tweets()
      .slice(-2)
      .map((tweet) => tweet.id);
    const calls = world.fake.control.requests().length;

    const again = await world.connector.publish(
      publishRequest(post, tokens, { attempt: 3, progress: { posted: ids, media: {} } }),
    );

    expect(again).toEqual(done);
    expect(world.fake.control.requests()).toHaveLength(calls);
  });
});
