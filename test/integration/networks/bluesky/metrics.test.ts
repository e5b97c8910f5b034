import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricsTarget } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import { anAccount, aPost, type BlueskyWorld, connect, publishRequest, startWorld } from './bluesky-world.js';

/** Bluesky's counts through the PDS's AppView proxy, against the fake. */
describe('Bluesky metrics', () => {
  let world: BlueskyWorld;
  let tokens: TokenSet;
  beforeAll(async () => {
    world = await startWorld();
    tokens = await connect(world);
  });
  afterAll(async () => {
    await world?.stop();
  });

  const target = (postId: string, platformPostId: string): MetricsTarget => ({
    postId,
    platformPostId,
    publishedAt: new Date().toISOString(),
  });
  const read = (posts: MetricsTarget[], accessToken = tokens.accessToken) =>
    world.network.connector.readPostMetrics?.({
      account: anAccount(),
      credentials: { accessToken },
      posts,
      signal: AbortSignal.timeout(5000),
    });

  it('reads likes, replies, reposts, quotes and bookmarks by AT-URI, 25 a request; a deleted post is not found', async () => {
    const uris: string[] = [];
    for (let i = 0; i < 26; i += 1) {
      const outcome = await world.network.connector.publish(
        publishRequest(world, aPost(`Counted ${i}`), tokens),
      );
      if (outcome.kind !== 'published') throw new Error('not published');
      uris.push(outcome.platformPostId);
    }
    world.fake.control.setCounts(String(uris[0]), {
      likeCount: 5,
      replyCount: 2,
      repostCount: 3,
      quoteCount: 1,
      bookmarkCount: 4,
    });
    const gone = uris[0]?.replace(/[a-z2-7]{13}$/, '2222222222222') ?? '';
    const before = world.fake.control.seen().length;
    const answer = await read([...uris.map((uri, i) => target(`pst_${i}`, uri)), target('pst_gone', gone)]);
    expect(answer?.kind).toBe('metrics');
    if (answer?.kind !== 'metrics') return;
    expect(answer.byPost.pst_0).toEqual({ likes: 5, comments: 2, shares: 3, quotes: 1, saves: 4 });
    // The fake, like the AppView, gives no bookmarkCount unless it has one: no 0 made up.
    expect(answer.byPost.pst_1).toEqual({ likes: 0, comments: 0, shares: 0, quotes: 0 });
    expect(Object.keys(answer.byPost)).toHaveLength(26);
    expect(answer.notFound).toEqual(['pst_gone']);
    expect(
      world.fake.control
        .seen()
        .slice(before)
        .filter((call) => call.endpoint === 'getPosts'),
    ).toHaveLength(2);
  });

  it("reads the account's followers, following and posts", async () => {
    const answer = await world.network.connector.readAccountMetrics?.({
      account: anAccount(),
      credentials: { accessToken: tokens.accessToken },
      signal: AbortSignal.timeout(5000),
    });
    expect(answer).toMatchObject({ kind: 'metrics', metrics: { followers: 42, following: 7 } });
  });

  it('says why a read failed: a rate limit with its wait, a refused token', async () => {
    world.fake.control.inject('getPosts', {
      kind: 'reply',
      reply: { status: 429, json: { error: 'RateLimitExceeded' }, headers: { 'retry-after': '120' } },
    });
    expect(await read([target('pst_x', 'at://did:plc:x/app.bsky.feed.post/2222222222222')])).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      retryAfterSeconds: 120,
    });
    world.fake.control.expireAccessTokens();
    expect(await read([target('pst_x', 'at://did:plc:x/app.bsky.feed.post/2222222222222')])).toMatchObject({
      kind: 'failed',
      failure: 'auth_failed',
    });
  });
});
