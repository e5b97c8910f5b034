import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_X_USER, type FakeXUser } from '../../../../infra/fake-networks/x/index.js';
import type { Post } from '../../../../shared/domain/posts.js';
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

const OTHER: FakeXUser = { id: '1500000000000000002', username: 'someone_else', name: 'Someone Else' };
const NEVER_MS = 30_000;

/** X's poll, quote, reply-to and Community options, and a post's link, against the fake X over HTTP. */
describe('X connector: platformOptions.twitter extras and the link', () => {
  let world: XWorld;
  let tokens: TokenSet;
  let counter = 0;
  const text = (words: string) => {
    counter += 1;
    return `${words} #${counter}`;
  };
  const publish = (post: Post, extra: Parameters<typeof publishRequest>[2] = {}) =>
    world.connector.publish(publishRequest(post, tokens, extra));
  const lookUp = (post: Post) =>
    world.connector.findPublished?.({
      account: xAccount(),
      credentials: { accessToken: tokens.accessToken },
      post,
      clientReference: post.postId,
      signal: AbortSignal.timeout(5000),
    });
  const latest = () => world.fake.control.tweets().at(-1);
  beforeAll(async () => {
    world = await startXWorld({}, { users: [DEFAULT_FAKE_X_USER, OTHER] });
    tokens = await connect(world);
    world.fake.control.setRateLimit('tweets.create', { remaining: 10_000 });
  });
  afterAll(async () => {
    await world.fake.stop();
  });

  it('sends a poll (the text is the question) and X stores it', async () => {
    const post = xPost(text('Tabs or spaces?'), {
      platformOptions: { twitter: { poll: { options: ['Tabs', 'Spaces'], durationMinutes: 60 } } },
    });
    const outcome = await publish(post);
    expect(outcome).toMatchObject({ kind: 'published', platformPostId: latest()?.id });
    expect(latest()?.poll).toMatchObject({ options: ['Tabs', 'Spaces'], durationMinutes: 60 });
  });

  it('a poll with media is refused by X (400): the post fails for good, nothing is stored', async () => {
    const bytes = new MemoryMediaBytes();
    const image = storedMedia(bytes, 'image/png', 300);
    const post = xPost(text('Poll with a picture'), {
      postType: 'image',
      media: [image.ref],
      platformOptions: { twitter: { poll: { options: ['A', 'B'], durationMinutes: 60 } } },
    });
    const before = world.fake.control.tweets().length;
    const outcome = await publish(post, { media: [image.delivery], bytes });
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'PLATFORM_REJECTED' });
    expect(world.fake.control.tweets()).toHaveLength(before);
  });

  it('quotes a post given by its address, sending only the id', async () => {
    const quoted = world.fake.control.addTweet({ authorId: OTHER.id, text: 'Worth quoting' });
    const post = xPost(text('Worth reading.'), {
      platformOptions: {
        twitter: { quoteOf: `https://twitter.com/${OTHER.username}/status/${quoted}?s=20` },
      },
    });
    await expect(publish(post)).resolves.toMatchObject({ kind: 'published' });
    expect(latest()?.quoteOf).toBe(quoted);
  });

  it('a quote of a deleted post is refused (403): failed for good, PLATFORM_FORBIDDEN', async () => {
    const quoted = world.fake.control.addTweet({ authorId: OTHER.id, text: 'Soon gone' });
    world.fake.control.deleteTweet(quoted);
    const post = xPost(text('Quoting the gone'), { platformOptions: { twitter: { quoteOf: quoted } } });
    await expect(publish(post)).resolves.toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_FORBIDDEN',
      platformRawCode: '403',
    });
  });

  it('a poll with a quote is refused by X (400)', async () => {
    const quoted = world.fake.control.addTweet({ authorId: OTHER.id, text: 'Quoted by a poll' });
    const post = xPost(text('Poll and quote'), {
      platformOptions: { twitter: { quoteOf: quoted, poll: { options: ['A', 'B'], durationMinutes: 5 } } },
    });
    await expect(publish(post)).resolves.toMatchObject({ kind: 'failed', code: 'PLATFORM_REJECTED' });
  });

  it('a thread replying to a given post: its first item replies to it, the rest chain as before', async () => {
    const target = world.fake.control.addTweet({ authorId: OTHER.id, text: 'Start of a conversation' });
    const post = xPost([{ text: text('R1/') }, { text: text('R2/') }], {
      platformOptions: { twitter: { replyTo: target } },
    });
    const outcome = await publish(post);
    const [first, second] = world.fake.control.tweets().slice(-2);
    expect(first?.replyTo).toBe(target);
    expect(second?.replyTo).toBe(first?.id);
    expect(outcome).toMatchObject({ kind: 'published', platformPostId: first?.id });
  });

  it('a reply to a post closed to the account (its reply settings) is refused (403): failed for good', async () => {
    const target = world.fake.control.addTweet({
      authorId: OTHER.id,
      text: 'Only people I follow may reply',
      replySettings: 'following',
    });
    const post = xPost(text('Trying to reply'), { platformOptions: { twitter: { replyTo: target } } });
    await expect(publish(post)).resolves.toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_FORBIDDEN',
    });
  });

  it('posts in a Community the account belongs to, and X refuses one it does not (403)', async () => {
    const mine = world.fake.control.addCommunity({ memberIds: [DEFAULT_FAKE_X_USER.id] });
    const theirs = world.fake.control.addCommunity({ memberIds: [OTHER.id] });
    const member = xPost(text('Hello, Community'), { platformOptions: { twitter: { communityId: mine } } });
    await expect(publish(member)).resolves.toMatchObject({ kind: 'published' });
    expect(latest()?.communityId).toBe(mine);

    const stranger = xPost(text('Hello, strangers'), {
      platformOptions: { twitter: { communityId: theirs } },
    });
    await expect(publish(stranger)).resolves.toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_FORBIDDEN',
    });
  });

  it('serves GET /2/communities/{id} to a token with its scopes (list.read too), and refuses one without', async () => {
    const id = world.fake.control.addCommunity({ name: 'Builders', memberIds: [DEFAULT_FAKE_X_USER.id] });
    const read = (scopes: string[]) =>
      fetch(`${world.fake.apiUrl}/2/communities/${id}`, {
        headers: { Authorization: `Bearer ${world.fake.control.issueAccessToken({ scopes })}` },
      });
    const answer = await read(['users.read', 'list.read', 'tweet.read']);
    expect(answer.status).toBe(200);
    await expect(answer.json()).resolves.toMatchObject({ data: { id, name: 'Builders', member_count: 1 } });
    expect((await read(['users.read', 'tweet.read'])).status).toBe(403);
  });

  it('a quote whose answer was lost is found by its quoted post; the same text without the quote is not it', async () => {
    const quoted = world.fake.control.addTweet({ authorId: OTHER.id, text: 'Quoted, then lost' });
    const words = text('Lost quote');
    const post = xPost(words, { platformOptions: { twitter: { quoteOf: quoted } } });
    const plain = xPost(words, {
      platformOptions: {
        twitter: { quoteOf: world.fake.control.addTweet({ authorId: OTHER.id, text: 'Other' }) },
      },
    });
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS });
    const outcome = await publish(post, { signal: AbortSignal.timeout(300) });
    expect(outcome.kind).toBe('unknown');
    const stored = latest();
    await expect(lookUp(post)).resolves.toMatchObject({ kind: 'found', platformPostId: stored?.id });
    await expect(lookUp(plain)).resolves.toEqual({ kind: 'not_found' });
  });

  it('a poll and a Community post whose answers were lost are found, and only as what they are', async () => {
    const community = world.fake.control.addCommunity({ memberIds: [DEFAULT_FAKE_X_USER.id] });
    const pollWords = text('Lost poll');
    const pollPost = xPost(pollWords, {
      platformOptions: { twitter: { poll: { options: ['Yes', 'No'], durationMinutes: 30 } } },
    });
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS });
    expect((await publish(pollPost, { signal: AbortSignal.timeout(300) })).kind).toBe('unknown');
    await expect(lookUp(pollPost)).resolves.toMatchObject({ kind: 'found', platformPostId: latest()?.id });
    await expect(lookUp(xPost(pollWords))).resolves.toEqual({ kind: 'not_found' });

    const communityWords = text('Lost Community post');
    const inCommunity = xPost(communityWords, { platformOptions: { twitter: { communityId: community } } });
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS });
    expect((await publish(inCommunity, { signal: AbortSignal.timeout(300) })).kind).toBe('unknown');
    await expect(lookUp(inCommunity)).resolves.toMatchObject({ kind: 'found', platformPostId: latest()?.id });
    await expect(lookUp(xPost(communityWords))).resolves.toEqual({ kind: 'not_found' });
  });

  it("puts the link's URL in the text (X builds the card), once, and finds such a post after a lost answer", async () => {
    const words = text('Our new page');
    const post = xPost(words, { link: { url: 'https://example.com/launch' } });
    await expect(publish(post)).resolves.toMatchObject({ kind: 'published' });
    expect(latest()?.text).toBe(`${words}\nhttps://example.com/launch`);

    const already = text('See https://example.com/twice');
    await publish(xPost(already, { link: { url: 'https://example.com/twice' } }));
    expect(latest()?.text).toBe(already);

    const lost = xPost(text('Lost link post'), { link: { url: 'https://example.com/lost' } });
    world.fake.control.answerLate('tweets.create', { delayMs: NEVER_MS });
    expect((await publish(lost, { signal: AbortSignal.timeout(300) })).kind).toBe('unknown');
    await expect(lookUp(lost)).resolves.toMatchObject({ kind: 'found', platformPostId: latest()?.id });
  });
});
